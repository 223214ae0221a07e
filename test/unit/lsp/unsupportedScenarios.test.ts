// chatTemplate.diagnostics.unsupportedScenarios, over real LSP: off by default, the setting brings back
// what the engines do with the conversations the template does not support.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  DidChangeConfigurationNotification,
  DidOpenTextDocumentNotification,
  type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";
import { initialize, startServer, type TestClient } from "../../helpers/lspClient";

const URI = "file:///work/chatml/chat_template.jinja";
// ChatML for string content only: Jinja2 throws on typed content.
const TEXT =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}";

describe("language server: findings about scenarios the template does not support", () => {
  let client: TestClient;
  let opened: PublishDiagnosticsParams;

  before(async () => {
    client = startServer();
    await initialize(client);
    const published = client.nextDiagnostics(URI);
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: "chat-template", version: 1, text: TEXT },
    });
    opened = await published;
  });
  after(() => client.close());

  it("a template that renders the same wherever Jinja2 renders it has no diagnostics", () => {
    assert.deepEqual(opened.diagnostics, []);
  });

  it("chatTemplate.diagnostics.unsupportedScenarios: true reports them", async () => {
    const next = client.nextDiagnostics(URI);
    await client.connection.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { chatTemplate: { diagnostics: { unsupportedScenarios: true } } },
    });
    const after = await next;
    assert.ok(after.diagnostics.some((d) => d.code === "jinja2/throws"));
  });
});
