// The capability lens, the hover on the first line and the quick fixes, over real LSP.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import {
  CodeActionRequest,
  CodeLensRequest,
  DidChangeConfigurationNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
  type CodeAction,
  type InitializeResult,
  type MarkupContent,
  type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";
import { fixture, runCli } from "../../helpers/cli";
import { applyLspEdits, initialize, startServer, type TestClient } from "../../helpers/lspClient";

const URI = "file:///work/glm/chat_template.jinja";

const TEXT = readFileSync(fixture("glm-style.jinja"), "utf8");

describe("language server: capabilities and quick fixes", () => {
  let client: TestClient;
  let init: InitializeResult;
  let opened: PublishDiagnosticsParams;

  before(async () => {
    client = startServer();
    init = await initialize(client);
    const published = client.nextDiagnostics(URI);
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: "chat-template", version: 1, text: TEXT },
    });
    opened = await published;
  });
  after(() => client.close());

  it("announces quick fixes and code lenses", () => {
    assert.deepEqual(init.capabilities.codeActionProvider, { codeActionKinds: ["quickfix", "source.fixAll"] });
    assert.deepEqual(init.capabilities.codeLensProvider, {});
  });

  it("a code lens on the first line with what llama.cpp infers and the tool-call format", async () => {
    const lenses = (await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: URI } }))!;
    assert.equal(lenses.length, 1);
    assert.equal(lenses[0].range.start.line, 0);
    assert.match(lenses[0].command!.title, /^llama\.cpp: tools, tool calls, .*· tool calls: TAG_WITH_TAGGED <tool_call> <arg_key>$/);
  });

  it("the hover on the first line has the capability table", async () => {
    const h = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: URI }, position: { line: 0, character: 2 } });
    const md = (h!.contents as MarkupContent).value;
    assert.match(md, /\| `supports_tools` \| ✓ true \|/);
    assert.match(md, /\| `supports_typed_content` \| /);
    assert.match(md, /\*\*Tool-call format:\*\* TAG_WITH_TAGGED/);
    const elsewhere = await client.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: URI },
      position: { line: 5, character: 2 },
    });
    assert.ok(!elsewhere || !(elsewhere.contents as MarkupContent).value.includes("supports_tools"));
  });

  it("a quickfix with the minja diagnostic attached: x.0 becomes x[0]", async () => {
    const line = TEXT.split("\n").findIndex((l) => l.includes("m.content.0.output"));
    const character = TEXT.split("\n")[line].indexOf("m.content.0.output");
    const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: URI },
      range: { start: { line, character }, end: { line, character: character + 11 } },
      context: { diagnostics: [] },
    })) as CodeAction[];
    const fix = actions.find((a) => a.title === "Write m.content[0]");
    assert.ok(fix, JSON.stringify(actions.map((a) => a.title)));
    assert.equal(fix.kind, "quickfix");
    assert.deepEqual(
      fix.diagnostics!.map((d) => d.code),
      ["minja/unsupported-syntax"],
    );
    assert.ok(
      actions.every((a) => a.diagnostics!.every((d) => d.range.start.line <= line && d.range.end.line >= line)),
      "only fixes for the diagnostics in the range",
    );
    const [edit] = fix.edit!.changes![URI];
    assert.equal(edit.newText, "[0]");
    assert.deepEqual(edit.range, { start: { line, character: character + 9 }, end: { line, character: character + 11 } });
  });

  it("source.fixAll (codeActionsOnSave) applies every safe fix, the text `chat-template fix` prints, in one edit", async () => {
    const ask = (only?: string[]) =>
      client.connection.sendRequest(CodeActionRequest.type, {
        textDocument: { uri: URI },
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        context: { diagnostics: [], ...(only ? { only } : {}) },
      }) as Promise<CodeAction[]>;
    const [fixAll] = await ask(["source.fixAll"]);
    assert.equal(fixAll.kind, "source.fixAll");
    assert.match(fixAll.title, /^Fix all: \d+ safe fixes$/);
    const edits = fixAll.edit!.changes![URI];
    assert.equal(edits.length, 1);
    const fixed = applyLspEdits(TEXT, [edits[0]]);
    assert.equal(fixed, runCli(["fix", fixture("glm-style.jinja")]).stdout);
    assert.deepEqual(
      (await ask(["source"])).map((a) => a.kind),
      ["source.fixAll"],
      "a request for every source action gets it too",
    );
    assert.ok(!(await ask()).some((a) => a.kind === "source.fixAll"), "never at a cursor move, where no kind is asked for");
    assert.deepEqual(await ask(["refactor"]), []);
  });

  it("source.fixAll offers nothing for a template with a security finding (as `chat-template fix` refuses it)", async () => {
    const uri = "file:///work/hostile-cycler.jinja";
    const published = client.nextDiagnostics(uri);
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "chat-template", version: 1, text: readFileSync(fixture("hostile-cycler.jinja"), "utf8") },
    });
    await published;
    const actions = await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ["source.fixAll"] },
    });
    assert.deepEqual(actions, []);
  });

  it("chatTemplate.diagnostics.nullToolsProbe: false drops the older probe's warning", async () => {
    assert.ok(opened.diagnostics.some((d) => d.code === "llamacpp/null-tools-probe"));
    const next = client.nextDiagnostics(URI);
    await client.connection.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { chatTemplate: { diagnostics: { nullToolsProbe: false } } },
    });
    const after = await next;
    assert.ok(after.diagnostics.length > 0);
    assert.ok(!after.diagnostics.some((d) => d.code === "llamacpp/null-tools-probe"));
  });
});

describe("language server: code actions queued behind an analysis", () => {
  let client: TestClient;
  before(async () => {
    client = startServer();
    await initialize(client, { initializationOptions: { diagnostics: { debounceMs: 0, timeLimitMs: 3000 } } });
  });
  after(() => client.close());

  it("each range asked for gets its own answer, queued behind the document's own check (the cursor's and a Problems view row's)", async () => {
    // Each document has its analysis process: the two requests wait behind this document's check, not another's.
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: "chat-template", version: 1, text: TEXT },
    });
    const line = TEXT.split("\n").findIndex((l) => l.includes("m.content.0.output"));
    const character = TEXT.split("\n")[line].indexOf("m.content.0.output");
    const ask = (range: { start: { line: number; character: number }; end: { line: number; character: number } }) =>
      client.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri: URI }, range, context: { diagnostics: [] } });
    // a queue that kept one code action request per document answered the row's with nothing once the cursor's came
    const [row] = (await Promise.all([
      ask({ start: { line, character }, end: { line, character: character + 11 } }),
      ask({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }),
    ])) as CodeAction[][];
    assert.ok(
      row.some((a) => a.title === "Write m.content[0]"),
      JSON.stringify(row.map((a) => a.title)),
    );
  });
});
