// The language server survives any document (issue 17): the analyses that render a template run in a
// separate process with time and memory limits, a template that exhausts one gets a diagnostic naming it at the
// statement that did, and the server keeps answering for every other document meanwhile and after.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  CompletionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentSymbolRequest,
  HoverRequest,
  type Diagnostic,
  type MarkupContent,
  type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";
import { HOSTILE_TEMPLATES, SUPERLINEAR_BUILTINS } from "../../helpers/hostileTemplates";
import { initialize, startServer, type TestClient } from "../../helpers/lspClient";

const TIME_LIMIT_MS = 3000;
const MEMORY_LIMIT_MB = 64;
const ALL_ENGINES = ["jinja2", "llamacpp", "minja", "hfjinja"];
const GOOD = "{%- for message in messages %}\n{{ message.content | trim }}\n{%- endfor %}";
const hostile = (name: string) => HOSTILE_TEMPLATES.find((h) => h.name === name)!.template;
/** The catalogue's "replace grows" on four lines: its engine checks take minutes (a string grown by replace until the output limit, in every scenario), on line 3. */
const SLOW =
  "{% set ns = namespace(s='x') %}\n{% for i in range(60) %}\n{% set ns.s = ns.s|replace('x', 'xx') %}\n{% endfor %}{{ ns.s|length }}";
/** The catalogue's "list doubled 40 times" on four lines: the doubling on line 3 exhausts the heap. */
const DOUBLING = "{% set ns = namespace(s=[1]) %}\n{% for i in range(40) %}\n{% set ns.s = ns.s + ns.s %}\n{% endfor %}{{ ns.s|length }}";
/** Line 3 of SLOW and DOUBLING: the statement whose render ran into the limit. */
const lineThree = (text: string) => ({ start: { line: 2, character: 0 }, end: { line: 2, character: text.split("\n")[2].length } });

async function start(diagnostics: object): Promise<TestClient> {
  const client = startServer();
  await initialize(client, { initializationOptions: { diagnostics: { debounceMs: 0, engines: ALL_ENGINES, ...diagnostics } } });
  return client;
}

function open(client: TestClient, uri: string, text: string): Promise<PublishDiagnosticsParams> {
  const next = client.nextDiagnostics(uri);
  void client.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "chat-template", version: 1, text },
  });
  return next;
}

function hover(client: TestClient, uri: string, line: number, character: number) {
  return client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } });
}

const codes = (p: PublishDiagnosticsParams) => p.diagnostics.map((d) => d.code);
const messageOf = (d: Diagnostic) => (typeof d.message === "string" ? d.message : d.message.value);

describe("language server on hostile documents", () => {
  let client: TestClient;
  const good = "file:///work/good.jinja";

  before(async () => {
    client = await start({ timeLimitMs: TIME_LIMIT_MS });
    await open(client, good, GOOD);
  });
  after(() => client.close());

  it("answers hover, completion and symbols for another document while one document's analysis is stuck", async () => {
    const slow = "file:///work/slow.jinja";
    const stuck = open(client, slow, SLOW);
    let done = false;
    void stuck.then(() => (done = true));
    const h = await hover(client, good, 1, 12);
    const completion = await client.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: good },
      position: { line: 1, character: 11 },
    });
    const symbols = await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: good } });
    assert.equal(done, false, "the slow document's analysis was still running");
    assert.match((h?.contents as MarkupContent).value, /content/);
    assert.ok(Array.isArray(completion) && completion.length > 0);
    assert.ok(Array.isArray(symbols) && symbols.length > 0);

    const limited = (await stuck).diagnostics.find((d) => d.code === "limit/analysis-time");
    assert.ok(limited, JSON.stringify((await stuck).diagnostics));
    assert.match(messageOf(limited), /ran past the analysis time limit \(3 s\) at line 3 /);
    assert.deepEqual(limited.range, lineThree(SLOW));
  });

  it("reports the batch bomb with the output limit, and 10,000 nested ifs with the nesting limit", async () => {
    const batch = await open(client, "file:///work/batch.jinja", "{{ [1]|batch(10**10, 0)|list }}");
    const limited = batch.diagnostics.find((d) => d.code === "compat/check-limit");
    assert.ok(limited, JSON.stringify(batch.diagnostics));
    assert.match(messageOf(limited), /output limit/);
    const nested = await open(client, "file:///work/nested.jinja", hostile("10,000 nested ifs"));
    assert.ok(codes(nested).includes("syntax/nesting"), JSON.stringify(codes(nested)));
  });

  it("checks other documents again after the failures", async () => {
    const next = client.nextDiagnostics(good);
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: good, version: 2 },
      contentChanges: [{ text: GOOD + "\n{{ messages[0].content }" }],
    });
    assert.ok(codes(await next).some((c) => String(c).startsWith("syntax/")));
    assert.ok(await hover(client, good, 1, 12));
  });
});

/** Documents whose analysis (or, once, hover on the server's own thread) ran for minutes (issue 25). */
const BOMBS = [
  ...SUPERLINEAR_BUILTINS.filter((h) => h.template.length < 100_000).map((h) => h.template),
  "{{ ('x' * 8000000)|replace('', 'yy')|length }}",
  "{{ ('x' * 8000000).count('') }}",
  "{{ ('a b' * 5000000)|title|length }}",
  "{{ ('x' * 1000000)|trim('abcdefghijklmnopqrstuvwxyz' * 100000)|length }}",
  "{{ strftime_now('%c' * 2000000)|length }}",
  "{{ range(10000000)|list|join|length }}",
];

describe("language server while a bomb's analysis runs", () => {
  let client: TestClient;
  const small = "file:///work/small.jinja";
  before(async () => {
    client = await start({ timeLimitMs: TIME_LIMIT_MS });
    await open(client, small, GOOD);
  });
  after(() => client.close());

  it("answers symbols, completion and hover on a small document before the bomb's diagnostics, each time", async () => {
    let slowest = 0;
    for (const [i, bomb] of BOMBS.entries()) {
      const uri = `file:///work/bomb${i}.jinja`;
      const analysed = open(client, uri, bomb);
      let done = false;
      void analysed.then(() => (done = true));
      // on the bomb itself too: its symbols come from the parse; its hover's security finding folds its
      // constants, in its own analysis process (once on the server's thread, for minutes)
      await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
      const bombHover = hover(client, uri, 0, 5);
      const t0 = performance.now();
      await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: small } });
      await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: small }, position: { line: 1, character: 11 } });
      assert.ok(await hover(client, small, 1, 12), bomb);
      slowest = Math.max(slowest, performance.now() - t0);
      assert.equal(done, false, `${bomb}: the small document was answered after the bomb's analysis ended`);
      await analysed;
      await bombHover;
    }
    console.log(`slowest answer on a small document (symbols, completion, hover) while a bomb was analysed: ${Math.round(slowest)} ms`);
  });

  it("publishes another document's diagnostics while one document's analysis is stuck", async () => {
    const stuck = open(client, "file:///work/stuck.jinja", SLOW);
    let done = false;
    void stuck.then(() => (done = true));
    const other = await open(client, "file:///work/other.jinja", "{% if x %}");
    assert.equal(done, false, "the stuck document's analysis was still running");
    assert.ok(
      codes(other).some((c) => String(c).startsWith("syntax/")),
      JSON.stringify(codes(other)),
    );
    await stuck;
  });
});

describe("language server whose analysis process runs out of heap", () => {
  let client: TestClient;
  before(async () => {
    client = await start({ timeLimitMs: 600_000, memoryLimitMb: MEMORY_LIMIT_MB });
  });
  after(() => client.close());

  it("turns a value bomb that exhausts the analysis heap into a diagnostic naming the memory limit", async () => {
    const p = await open(client, "file:///work/doubling.jinja", DOUBLING);
    const limited = p.diagnostics.find((d) => d.code === "limit/analysis-memory");
    assert.ok(limited, JSON.stringify(p.diagnostics));
    assert.match(messageOf(limited), /exhausted the analysis memory limit \(64 MB\) at line 3 /);
    assert.deepEqual(limited.range, lineThree(DOUBLING));
    const good = "file:///work/good.jinja";
    // a fresh process runs the next document's engine checks to the end
    assert.ok(codes(await open(client, good, GOOD)).includes("minja/throws"));
  });
});

describe("language server whose analysis process is killed", () => {
  let client: TestClient;
  before(async () => {
    client = await start({ timeLimitMs: 600_000 });
  });
  after(() => client.close());

  it("reports the crash on the document being analysed and starts a fresh process for the next analysis", async () => {
    const uri = "file:///work/slow.jinja";
    // The process starts with the first analysis, so once it says so it is analysing this document.
    const started = client.nextLog(/analysis process started \(pid (\d+)/);
    const published = open(client, uri, SLOW);
    const pid = Number((await started)[1]);
    process.kill(pid, "SIGKILL");
    const crash = (await published).diagnostics.find((d) => d.code === "analysis/crash");
    assert.ok(crash, JSON.stringify((await published).diagnostics));
    assert.match(messageOf(crash), /signal SIGKILL/);

    const restarted = client.nextLog(/analysis process started \(pid (\d+)/);
    const next = client.nextDiagnostics(uri);
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: "{% if x %}" }],
    });
    assert.notEqual(Number((await restarted)[1]), pid);
    assert.ok(
      codes(await next).some((c) => String(c).startsWith("syntax/")),
      JSON.stringify((await next).diagnostics),
    );
  });
});

/** Documents of 1 to 8 MB (issue 25): their parse took seconds on the server's thread. */
const LARGE_DOCUMENTS: [string, string][] = [
  ["100k dict keys", `{% set d = {${Array.from({ length: 100_000 }, (_, i) => `'key${i}': ${i}`).join(", ")}} %}{{ d|length }}`],
  ["a 1 MB single line", `{{ [${"1, ".repeat(350_000)}1]|length }}`],
  ["500k broken lines", "{{ ) }}\n".repeat(500_000)],
  ["200k macros", Array.from({ length: 200_000 }, (_, i) => `{% macro m${i}() %}x{% endmacro %}\n`).join("")],
  ["60k fix targets", "{{ messages.0 }}\n".repeat(60_000)],
  ["a 1M-digit literal", `{{ ${"7".repeat(1_000_000)} }}`],
];

describe("language server on 1–8 MB documents", () => {
  let client: TestClient;
  const small = "file:///work/small.jinja";
  before(async () => {
    client = await start({ timeLimitMs: TIME_LIMIT_MS });
    await open(client, small, GOOD);
  });
  after(() => client.close());

  it("answers a small document's symbols, completion and hover before a large one's outline, each time", async () => {
    let slowest = 0;
    for (const [i, [name, text]] of LARGE_DOCUMENTS.entries()) {
      assert.ok(text.length > 1_000_000, `${name}: ${text.length} characters`);
      const uri = `file:///work/large${i}.jinja`;
      const analysed = open(client, uri, text);
      const order: string[] = [];
      const large = client.connection
        .sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })
        .then((symbols) => (order.push("large outline"), symbols));
      const t0 = performance.now();
      const answers = Promise.all([
        client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: small } }),
        client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: small }, position: { line: 1, character: 11 } }),
        hover(client, small, 1, 12),
      ]).then((r) => (order.push("small answers"), r));
      const [symbols, completion, h] = await answers;
      slowest = Math.max(slowest, performance.now() - t0);
      assert.ok(Array.isArray(symbols) && symbols.length > 0, name);
      assert.ok(Array.isArray(completion) && completion.length > 0, name);
      assert.ok(h, name);
      await large;
      assert.deepEqual(order, ["small answers", "large outline"], name);
      // its diagnostics come from its analysis process: the checks' own, or the time limit's
      assert.ok((await analysed).diagnostics.length > 0, name);
    }
    console.log(
      `slowest answer on a small document (symbols, completion, hover) after a 1–8 MB document opened: ${Math.round(slowest)} ms`,
    );
  });
});
