// Format Document and Format Selection over real LSP: the edits the formatter proves, in the editor's tab size
// or chatTemplate.format.indentWidth.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  DidChangeConfigurationNotification,
  DidOpenTextDocumentNotification,
  DocumentFormattingRequest,
  DocumentRangeFormattingRequest,
  HoverRequest,
  type InitializeResult,
  type MarkupContent,
} from "vscode-languageserver-protocol/node";
import { applyLspEdits, initialize, startServer, type TestClient } from "../../helpers/lspClient";

const URI = "file:///work/format/chat_template.jinja";
const TEXT = "{%for m in messages%}\n{%if m.role=='user'%}\n{{-m.content}}\n{%endif%}\n{%endfor%}\n{{x}}";

describe("language server: formatting", () => {
  let client: TestClient;
  let init: InitializeResult;

  before(async () => {
    client = startServer();
    init = await initialize(client);
    const published = client.nextDiagnostics(URI);
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: "chat-template", version: 1, text: TEXT },
    });
    await published;
  });
  after(() => client.close());

  const formatDocument = (tabSize: number, insertSpaces = true) =>
    client.connection.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri: URI }, options: { tabSize, insertSpaces } });

  it("announces document and range formatting", () => {
    assert.equal(init.capabilities.documentFormattingProvider, true);
    assert.equal(init.capabilities.documentRangeFormattingProvider, true);
  });

  it("Format Document indents by the editor's tab size (tabs where it inserts them) and normalizes spacing", async () => {
    const tidy = "{% for m in messages %}\n  {% if m.role == 'user' %}\n    {{- m.content }}\n  {% endif %}\n{% endfor %}\n{{ x }}";
    assert.equal(applyLspEdits(TEXT, (await formatDocument(2))!), tidy);
    assert.equal(applyLspEdits(TEXT, (await formatDocument(4, false))!).split("\n")[2], "\t\t{{- m.content }}");
  });

  it("Format Selection changes only the selected lines", async () => {
    const edits = (await client.connection.sendRequest(DocumentRangeFormattingRequest.type, {
      textDocument: { uri: URI },
      range: { start: { line: 5, character: 0 }, end: { line: 5, character: 5 } },
      options: { tabSize: 2, insertSpaces: true },
    }))!;
    assert.equal(applyLspEdits(TEXT, edits), TEXT.replace("{{x}}", "{{ x }}"));
  });

  it("after a format, a hover on a line it left as it is says why", async () => {
    const uri = "file:///work/format/prompt.jinja";
    const published = client.nextDiagnostics(uri);
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "chat-template", version: 1, text: "{% if messages %}\nYou are helpful.\n{% endif %}" },
    });
    await published;
    const hover = () => client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 4 } });
    assert.equal(await hover(), null, "nothing before a format");
    const edits = await client.connection.sendRequest(DocumentFormattingRequest.type, {
      textDocument: { uri },
      options: { tabSize: 2, insertSpaces: true },
    });
    assert.deepEqual(edits, []);
    const h = (await hover())!;
    assert.match(
      (h.contents as MarkupContent).value,
      /^\*\*Format\*\* left this line's layout as it is.*\n\n- this whitespace is template text/,
    );
    assert.deepEqual(h.range, { start: { line: 1, character: 0 }, end: { line: 1, character: 16 } });
  });

  it("chatTemplate.format.indentWidth overrides the tab size", async () => {
    await client.connection.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { chatTemplate: { format: { indentWidth: 3 } } },
    });
    assert.equal(applyLspEdits(TEXT, (await formatDocument(8))!).split("\n")[2], "      {{- m.content }}");
  });
});
