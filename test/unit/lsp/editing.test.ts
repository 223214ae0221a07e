// The editing features over real LSP: signature help, references and document highlights.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  DidOpenTextDocumentNotification,
  DocumentHighlightKind,
  DocumentHighlightRequest,
  ReferencesRequest,
  SignatureHelpRequest,
  type InitializeResult,
  type MarkupContent,
} from "vscode-languageserver-protocol/node";
import { initialize, startServer, type TestClient } from "../../helpers/lspClient";

const URI = "file:///work/editing.jinja";
const TEXT = [
  "{%- macro render(role, content, sep='\\n') -%}",
  "{{ role }}{{ sep }}{{ content | trim }}",
  "{%- endmacro -%}",
  "{%- for message in messages %}",
  "{{ render(message.role, message.content | truncate(20, ) ) }}",
  "{%- endfor %}",
].join("\n");

describe("language server: editing features", () => {
  let client: TestClient;
  let init: InitializeResult;

  before(async () => {
    client = startServer();
    init = await initialize(client, { initializationOptions: { diagnostics: { engines: ["jinja2"] } } });
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: "chat-template", version: 1, text: TEXT },
    });
  });
  after(() => client.close());

  const lineOf = (needle: string) => TEXT.split("\n").findIndex((l) => l.includes(needle));
  const at = (needle: string, delta = 0) => ({ line: lineOf(needle), character: TEXT.split("\n")[lineOf(needle)].indexOf(needle) + delta });

  it("announces signature help, triggered by ( and ,", () => {
    assert.deepEqual(init.capabilities.signatureHelpProvider, { triggerCharacters: ["(", ","], retriggerCharacters: ["="] });
  });

  it("signature help on a macro call: the macro's parameters, the one under the cursor active", async () => {
    const h = (await client.connection.sendRequest(SignatureHelpRequest.type, {
      textDocument: { uri: URI },
      position: at("message.content |"),
    }))!;
    assert.equal(h.signatures[0].label, "render(role, content, sep='\\n')");
    assert.equal(h.activeParameter, 1);
    assert.deepEqual(h.signatures[0].parameters![1].label, [13, 20]);
  });

  it("signature help on a filter: its arguments after the value, with the engines that lack it", async () => {
    const h = (await client.connection.sendRequest(SignatureHelpRequest.type, {
      textDocument: { uri: URI },
      position: at("20, ", 4),
    }))!;
    assert.match(h.signatures[0].label, /^truncate\(length=255, /);
    assert.equal(h.activeParameter, 1);
    assert.match((h.signatures[0].documentation as MarkupContent).value, /\*\*llama\.cpp\*\*: throws/);
  });

  it("announces references and document highlights", () => {
    assert.equal(init.capabilities.referencesProvider, true);
    assert.equal(init.capabilities.documentHighlightProvider, true);
  });

  it("references of a macro parameter: its uses in the macro, with or without the declaration", async () => {
    const position = at("role }}", 1);
    const ask = (includeDeclaration: boolean) =>
      client.connection.sendRequest(ReferencesRequest.type, { textDocument: { uri: URI }, position, context: { includeDeclaration } });
    const all = (await ask(true))!;
    assert.deepEqual(
      all.map((l) => [l.range.start.line, l.range.start.character]),
      [
        [0, 17],
        [1, 3],
      ],
    );
    assert.ok(all.every((l) => l.uri === URI));
    assert.deepEqual((await ask(false))!.length, 1);
  });

  it("document highlights of the loop variable: its definition written, its uses read", async () => {
    const h = (await client.connection.sendRequest(DocumentHighlightRequest.type, {
      textDocument: { uri: URI },
      position: at("message in", 2),
    }))!;
    assert.deepEqual(
      h.map((x) => [x.range.start.line, x.kind]),
      [
        [3, DocumentHighlightKind.Write],
        [4, DocumentHighlightKind.Read],
        [4, DocumentHighlightKind.Read],
      ],
    );
  });

  it("no signature help outside a call", async () => {
    const h = await client.connection.sendRequest(SignatureHelpRequest.type, {
      textDocument: { uri: URI },
      position: { line: 1, character: 0 },
    });
    assert.equal(h, null);
  });
});
