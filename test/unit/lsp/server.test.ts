// The language server as VS Code sees it: a child process speaking LSP over stdio.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  CompletionRequest,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  HoverRequest,
  SemanticTokensRequest,
  type CompletionItem,
  type DocumentSymbol,
  type InitializeResult,
  type LocationLink,
  type MarkupContent,
} from "vscode-languageserver-protocol/node";
import { initialize, startServer, type TestClient } from "../../helpers/lspClient";

const DEBOUNCE_MS = 300;
const URI = "file:///work/chat_template.jinja";
const TEXT = [
  "{%- macro render(item) -%}",
  "{{ item | trim }}",
  "{%- endmacro -%}",
  "{%- for message in messages %}",
  "{{ render(message.content) }}",
  "{%- endfor %}",
].join("\n");

describe("language server over stdio", () => {
  let client: TestClient;
  let init: InitializeResult;
  let opened: Promise<unknown>;

  before(async () => {
    client = startServer();
    init = await initialize(client, {
      capabilities: { textDocument: { definition: { linkSupport: true } } },
      initializationOptions: { diagnostics: { debounceMs: DEBOUNCE_MS, engines: ["jinja2"] } },
    });
    opened = client.nextDiagnostics(URI);
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: "chat-template", version: 1, text: TEXT },
    });
  });
  after(() => client.close());

  it("initializes with the capabilities of every feature", () => {
    const c = init.capabilities;
    assert.equal(c.hoverProvider, true);
    assert.deepEqual(c.completionProvider?.triggerCharacters, [".", "|"]);
    assert.equal(c.definitionProvider, true);
    assert.equal(c.documentSymbolProvider, true);
    assert.equal(c.foldingRangeProvider, true);
    assert.ok(c.semanticTokensProvider?.legend.tokenTypes.includes("function"));
  });

  it("publishes diagnostics on open", async () => {
    assert.deepEqual((await opened) as unknown, { uri: URI, diagnostics: [] });
  });

  it("publishes diagnostics once after a burst of changes, no sooner than the debounce delay", async () => {
    const before = client.published.length;
    const next = client.nextDiagnostics(URI);
    const sent = Date.now();
    // Three edits in a row; only the last text (an unclosed `if`) should be checked. Written in one go, not one
    // after another's acknowledgement, so that a loaded machine cannot let the debounce delay pass between them.
    await Promise.all(
      (
        [
          [2, TEXT + "{{"],
          [3, TEXT + "{{ x"],
          [4, TEXT + "\n{% if x %}"],
        ] as const
      ).map(([version, text]) =>
        client.connection.sendNotification(DidChangeTextDocumentNotification.type, {
          textDocument: { uri: URI, version },
          contentChanges: [{ text }],
        }),
      ),
    );
    const d = await next;
    assert.ok(Date.now() - sent >= DEBOUNCE_MS - 20, "not before the debounce delay");
    assert.equal(d.diagnostics.length, 1);
    assert.equal(d.diagnostics[0].code, "syntax/unclosed-block");
    assert.equal(d.diagnostics[0].range.start.line, 6);
    await new Promise((r) => setTimeout(r, DEBOUNCE_MS * 2));
    assert.equal(client.published.length, before + 1, "one publish for the burst");
  });

  it("answers hover with Markdown and the word's range", async () => {
    const h = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: URI }, position: { line: 1, character: 11 } });
    assert.match((h!.contents as MarkupContent).value, /\(filter\) trim/);
    assert.deepEqual(h!.range, { start: { line: 1, character: 10 }, end: { line: 1, character: 14 } });
  });

  it("completes message fields with a text edit over the typed part", async () => {
    const items = (await client.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: URI },
      position: { line: 4, character: 25 },
    })) as CompletionItem[];
    const content = items.find((i) => i.label === "content");
    assert.ok(content, "message.content offered");
    assert.deepEqual(content!.textEdit, {
      range: { start: { line: 4, character: 18 }, end: { line: 4, character: 25 } },
      newText: "content",
    });
  });

  it("lists document symbols", async () => {
    const symbols = (await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: URI } })) as DocumentSymbol[];
    assert.deepEqual(
      symbols.map((s) => s.name),
      ["render", "for message in messages"],
    );
    assert.deepEqual(
      symbols[1].children!.map((c) => c.name),
      ["message"],
    );
  });

  it("returns folding ranges", async () => {
    const ranges = await client.connection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri: URI } });
    assert.deepEqual(
      ranges!.map((r) => [r.startLine, r.endLine]),
      [
        [0, 1],
        [3, 4],
      ],
    );
  });

  it("returns semantic tokens in LSP's relative encoding", async () => {
    const tokens = await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri: URI } });
    const legend = init.capabilities.semanticTokensProvider!.legend;
    // The first token: `macro` at line 0, character 4, length 5, a keyword.
    assert.deepEqual(tokens!.data.slice(0, 5), [0, 4, 5, legend.tokenTypes.indexOf("keyword"), 0]);
    assert.equal(tokens!.data.length % 5, 0);
  });

  it("goes to a macro's definition with a location link", async () => {
    const links = (await client.connection.sendRequest(DefinitionRequest.type, {
      textDocument: { uri: URI },
      position: { line: 4, character: 5 },
    })) as LocationLink[];
    assert.equal(links.length, 1);
    assert.equal(links[0].targetUri, URI);
    assert.deepEqual(links[0].targetSelectionRange, { start: { line: 0, character: 10 }, end: { line: 0, character: 16 } });
    assert.deepEqual(links[0].originSelectionRange, { start: { line: 4, character: 3 }, end: { line: 4, character: 9 } });
  });
});
