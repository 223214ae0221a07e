// Rename over real LSP: prepareRename's range and placeholder, the edit for each kind of symbol, and each
// refusal as an error whose message the editor shows (the proof's renders run in the analysis process).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  DidOpenTextDocumentNotification,
  LSPErrorCodes,
  PrepareRenameRequest,
  RenameRequest,
  ResponseError,
  type InitializeResult,
  type Position,
} from "vscode-languageserver-protocol/node";
import { applyLspEdits, initialize, startServer, type TestClient } from "../../helpers/lspClient";

const URI = "file:///work/rename.jinja";
const TEXT = [
  "{%- macro render(role, content) -%}",
  "{{ role }}: {{ content | trim }}",
  "{%- endmacro -%}",
  "{%- set ns = namespace(last='') -%}",
  "{%- set count = 0 -%}",
  "{%- for message in messages -%}",
  "{{ render(role=message.role, content=message.content) }}",
  "{%- set ns.last = message.role -%}",
  "{%- endfor -%}",
  "{{ ns.last }}{{ count }}{{ range(1) | length }}",
].join("\n");
// renaming `found` would leave the subscript's read behind: only rendering shows it
const DYNAMIC_URI = "file:///work/dynamic.jinja";
const DYNAMIC = "{% set ns = namespace(found='yes') %}{{ ns.found }}{{ ns['found'] }}";

describe("language server: rename", () => {
  let client: TestClient;
  let init: InitializeResult;

  before(async () => {
    client = startServer();
    init = await initialize(client, { initializationOptions: { diagnostics: { engines: ["jinja2"] } } });
    for (const [uri, text] of [
      [URI, TEXT],
      [DYNAMIC_URI, DYNAMIC],
    ])
      await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: "chat-template", version: 1, text },
      });
  });
  after(() => client.close());

  /** The position of the `nth` occurrence of `needle`, `delta` characters in. */
  const at = (needle: string, delta = 1, nth = 0): Position => {
    let i = -1;
    for (let k = 0; k <= nth; k++) i = TEXT.indexOf(needle, i + 1);
    const before = TEXT.slice(0, i + delta).split("\n");
    return { line: before.length - 1, character: before[before.length - 1].length };
  };
  const prepare = (position: Position, uri = URI) =>
    client.connection.sendRequest(PrepareRenameRequest.type, { textDocument: { uri }, position });
  const rename = (position: Position, newName: string, uri = URI) =>
    client.connection.sendRequest(RenameRequest.type, { textDocument: { uri }, position, newName });
  const renamed = async (position: Position, newName: string) => applyLspEdits(TEXT, (await rename(position, newName))!.changes![URI]);
  /** Asserts the request fails with a refusal whose message matches. */
  const refused = (request: Promise<unknown>, message: RegExp) =>
    assert.rejects(
      request,
      (e: unknown) => e instanceof ResponseError && e.code === LSPErrorCodes.RequestFailed && message.test(e.message),
    );

  it("announces rename with prepareRename", () => {
    assert.deepEqual(init.capabilities.renameProvider, { prepareProvider: true });
  });

  it("prepareRename: the name's range and placeholder", async () => {
    assert.deepEqual(await prepare(at("ns.last }}", 4)), {
      range: { start: { line: 9, character: 6 }, end: { line: 9, character: 10 } },
      placeholder: "last",
    });
    assert.deepEqual(await prepare(at("render(role=")), {
      range: { start: { line: 6, character: 3 }, end: { line: 6, character: 9 } },
      placeholder: "render",
    });
  });

  it("renames a macro at its definition and its calls", async () => {
    const out = await renamed(at("render(role=", 2), "show");
    assert.match(out, /^\{%- macro show\(role, content\) -%\}/);
    assert.match(out, /\{\{ show\(role=message\.role/);
  });

  it("renames a macro parameter, with the keyword arguments that name it at calls", async () => {
    const out = await renamed(at("role }}"), "speaker");
    assert.match(out, /macro render\(speaker, content\)/);
    assert.match(out, /\{\{ speaker \}\}: /);
    assert.match(out, /render\(speaker=message\.role, content=/);
  });

  it("renames a set variable, a loop variable and a namespace attribute", async () => {
    assert.match(await renamed(at("count }}"), "total"), /set total = 0 -%\}[^]*\{\{ total \}\}/);
    const loop = await renamed(at("message in"), "turn");
    assert.match(loop, /for turn in messages/);
    assert.match(loop, /render\(role=turn\.role, content=turn\.content\)/);
    assert.match(loop, /set ns\.last = turn\.role/);
    const attr = await renamed(at("last=", 1), "previous");
    assert.equal((attr.match(/\bprevious\b/g) ?? []).length, 3);
    assert.doesNotMatch(attr, /\blast\b/);
  });

  it("prepareRename refuses what the template does not define, saying what it is", async () => {
    await refused(prepare(at("messages -%}")), /`messages` is a context variable/);
    await refused(prepare(at("range(1)")), /`range` is a builtin global/);
    await refused(prepare(at("trim }}")), /`trim` is a filter/);
    await refused(prepare(at("endfor")), /`endfor` is a keyword/);
  });

  it("rename refuses a new name that is no identifier, a keyword, a context variable, a builtin or another local", async () => {
    const count = at("count }}");
    await refused(rename(count, "my count"), /`my count` is not a Jinja identifier/);
    await refused(rename(count, "if"), /`if` is a keyword/);
    await refused(rename(count, "tools"), /`tools` is a context variable/);
    await refused(rename(count, "raise_exception"), /`raise_exception` is a builtin global/);
    await refused(rename(count, "ns"), /`ns` is already defined in the same scope, at line 4/);
    await refused(rename(at("content | trim"), "role"), /`role` is already defined in the same scope/);
  });

  it("rename refuses a name Jinja defines, and a capture either way", async () => {
    await refused(rename(at("count }}"), "loop"), /`loop` is a name Jinja itself defines/);
    await refused(
      rename(at("count }}"), "message"),
      /`message` already appears at line 6, in the scope of `count`: the two names would be confused/,
    );
    await refused(
      rename(at("message in"), "count"),
      /`count` is already the variable defined at line 5, visible where `message` is at line 6/,
    );
  });

  it("rename refuses an edit that changes what an engine renders, naming the engine and the scenario", async () => {
    await refused(
      rename({ line: 0, character: DYNAMIC.indexOf("found }}") + 1 }, "seen", DYNAMIC_URI),
      /Renaming `found` to `seen` changes what Jinja2 renders for the scenario 'basic'/,
    );
  });
});

describe("language server: rename of a template past the analysis limits", () => {
  // the catalogue's "replace grows": its renders take minutes, far past the limit
  const SLOW =
    "{% set ns = namespace(s='x') %}{% for i in range(60) %}{% set ns.s = ns.s|replace('x', 'xx') %}{% endfor %}{{ ns.s|length }}";
  const uri = "file:///work/slow.jinja";
  let client: TestClient;

  before(async () => {
    client = startServer();
    await initialize(client, { initializationOptions: { diagnostics: { engines: ["jinja2"], timeLimitMs: 1000 } } });
  });
  after(() => client.close());

  it("refuses, naming the limit its renders ran into", async () => {
    const published = client.nextDiagnostics(uri);
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "chat-template", version: 1, text: SLOW },
    });
    await published;
    const rename = client.connection.sendRequest(RenameRequest.type, {
      textDocument: { uri },
      position: { line: 0, character: SLOW.indexOf("i in") },
      newName: "step",
    });
    await assert.rejects(
      rename,
      (e: unknown) => e instanceof ResponseError && /^The rename could not be proven harmless: this template .*time/.test(e.message),
    );
  });
});
