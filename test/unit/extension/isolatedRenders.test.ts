// "Test Template Against Model" and the Test Explorer render the user's template in helper processes with a heap
// and a time limit (issue 17), as the preview's dialect columns do: a template that exhausts a limit ends in an
// error that names it, while the calling process (this test's, the extension host's stand-in) goes on answering
// its event loop with a small heap, and the next render or case runs.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import { dialectProcessEngine } from "../../../client/src/preview/engines/dialectProcess";
import { CaseProcess } from "../../../client/src/templateTests/caseProcess";
import { renderPrompt } from "../../../client/src/testAgainstModel/prompt";
import { TemplateDocument } from "../../../server/src/document";
import { parseJson, type PyDict } from "../../../server/src/interpreter";
import { markersOf, readTestFile, runCase } from "../../../server/src/templateTests";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";
import { HOSTILE_TEMPLATES } from "../../helpers/hostileTemplates";

/** The bundled helpers, as the extension starts them (dist/ is built before the tests). */
const DIALECT_WORKER = resolve(__dirname, "../../../dist/dialectWorker.js");
const CASE_WORKER = resolve(__dirname, "../../../dist/templateTestWorker.js");
const NOW = { year: 2026, month: 1, day: 2, hour: 3, minute: 4, second: 5, microsecond: 0 };
const CONTEXT = parseJson(JSON.stringify({ messages: [{ role: "user", content: "hi" }] })) as PyDict;
const hostile = (name: string) => HOSTILE_TEMPLATES.find((h) => h.name === name)!.template;
/**
 * The catalogue's "list doubled 40 times" with every statement after line 1 on line 3: past the helpers' heap long
 * before the dialects' limits stop it (in process: some 300 MB first; the caps probe's 64 MB), at the doubling.
 */
const HEAP_BOMB = "{% set ns = namespace(s=[1]) %}\n\n{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}{% endfor %}{{ ns.s|length }}";
/** Per-character work inside a builtin, which the step budget does not count, on bounded values: on line 3. */
const SLOW = "{% set s = 'ab ' * 1000000 %}\n\n{% for i in range(100) %}{{ s|title|length }}{% endfor %}";
/** Where each stops its helper: the statement on line 3 its render had reached. */
const statementAt = (template: string, opening: string) => {
  const start = template.indexOf(opening);
  return { start, end: template.indexOf("{% endfor"), line: 3, column: start - template.lastIndexOf("\n", start) };
};
const BOMB_AT = statementAt(HEAP_BOMB, "{% set ns.s");
const SLOW_AT = statementAt(SLOW, "{{ s|title");
const HELPER_HEAP_MB = 32;
/** Room for SLOW's bounded values: it meets the time limit, not the heap's. */
const SLOW_HEAP_MB = 1024;
/** This process's heap stays far below what the bomb builds. */
const CALLER_HEAP_BOUND = 256 * 1024 * 1024;

/** Awaits `work` while counting turns of this process's event loop: a render in process would allow none. */
async function whileResponsive<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let running = true;
  const spin = () => running && (turns++, setImmediate(spin));
  setImmediate(spin);
  try {
    return { value: await work(), turns };
  } finally {
    running = false;
  }
}

describe("Test Template Against Model: the prompt renders in a helper process", () => {
  const opened: { dispose(): void }[] = [];
  const reference = (timeoutMs: number, memoryMb = HELPER_HEAP_MB) => {
    const e = dialectProcessEngine({ command: process.execPath, args: [DIALECT_WORKER], timeoutMs, memoryMb }, "jinja2");
    opened.push(e);
    return e;
  };
  after(() => opened.forEach((e) => e.dispose()));
  const input = (template: string) => ({ doc: new TemplateDocument(template), context: CONTEXT, now: NOW });

  it("a value bomb that exhausts the helper's heap is an error naming the limit; this process stays responsive", async () => {
    const engine = reference(60_000);
    const { value, turns } = await whileResponsive(() => renderPrompt(engine, input(HEAP_BOMB)));
    assert.deepEqual(value, {
      ok: false,
      message: `the template does not render (line 3, column ${BOMB_AT.column}): this template exhausted the render memory limit (${HELPER_HEAP_MB} MB) at line 3; its process was stopped`,
    });
    assert.ok(turns > 0, "the event loop turned while the template rendered");
    assert.ok(process.memoryUsage().heapUsed < CALLER_HEAP_BOUND, `${process.memoryUsage().heapUsed} bytes of heap here`);
    assert.deepEqual(await renderPrompt(engine, input("{{ messages[0].content }}")), { ok: true, prompt: "hi" });
  });

  it("a value the dialect stops at its limit is an error at its line", async () => {
    const r = await renderPrompt(reference(60_000), input(`line one\n${hostile("list nested in itself, as JSON")}`));
    assert.match(r && !r.ok ? r.message : "", /^the template does not render \(line 2, column \d+\): .*output limit/);
  });

  it("a render past the time limit is an error naming the limit", async () => {
    const r = await renderPrompt(reference(1000, SLOW_HEAP_MB), input(SLOW));
    assert.deepEqual(r, {
      ok: false,
      message: `the template does not render (line 3, column ${SLOW_AT.column}): this template ran past the render time limit (1 s) at line 3; its process was stopped`,
    });
  });
});

/** A folder with the template and a test file of these cases; returns the test file's path. */
function suite(template: string, cases: unknown[]): string {
  const dir = mkdtempSync(join(tmpdir(), "ctt-isolated-"));
  writeFileSync(join(dir, "t.jinja"), template);
  const file = join(dir, "t.chat-template-test.json");
  writeFileSync(file, JSON.stringify({ template: "t.jinja", cases }, null, 1));
  return file;
}

describe("Test Explorer and Compare Templates: each case and probe runs in a helper process", () => {
  const opened: CaseProcess[] = [];
  const cases = (timeoutMs: number, memoryMb = HELPER_HEAP_MB) => {
    const p = new CaseProcess({ command: process.execPath, args: [CASE_WORKER], timeoutMs, memoryMb });
    opened.push(p);
    return p;
  };
  after(() => opened.forEach((p) => p.dispose()));
  const run = (p: CaseProcess, testFile: string, name: string) => {
    const tc = readTestFile(testFile).cases.find((c) => c.name === name)!;
    return p.run(tc, { testFile, name, updateSnapshots: false });
  };
  const RENDERS = { scenario: "basic", engines: ["jinja2", "llamacpp"], expect: { renders: true, sameAs: "jinja2" } };

  it("a case's result is the runner's, as `chat-template test` gives it", async () => {
    const template = "{% for m in messages %}{{ m.content }}{% endfor %}{{ x.0 }}";
    const file = suite(template, [
      { name: "renders", ...RENDERS },
      { name: "caps", expect: { caps: { engine: "llamacpp", supports_tools: true } } },
    ]);
    const p = cases(60_000);
    for (const tc of readTestFile(file).cases) {
      const reply = await run(p, file, tc.name);
      assert.ok(reply.ok, JSON.stringify(reply));
      const inProcess = await runCase(new TemplateDocument(template), tc);
      assert.deepEqual({ ...reply.result, durationMs: 0 }, JSON.parse(JSON.stringify({ ...inProcess, durationMs: 0 })), tc.name);
    }
  });

  it("a value bomb that exhausts the helper's heap fails its case naming the limit; this process stays responsive", async () => {
    const p = cases(60_000);
    const { value, turns } = await whileResponsive(() => run(p, suite(HEAP_BOMB, [{ name: "bomb", ...RENDERS }]), "bomb"));
    assert.deepEqual(value, {
      ok: false,
      message: `this template exhausted the render memory limit (${HELPER_HEAP_MB} MB) at line 3; its process was stopped`,
      at: BOMB_AT,
    });
    assert.ok(turns > 0, "the event loop turned while the case ran");
    assert.ok(process.memoryUsage().heapUsed < CALLER_HEAP_BOUND, `${process.memoryUsage().heapUsed} bytes of heap here`);
    const next = await run(p, suite("{{ messages[0].content }}", [{ name: "fine", ...RENDERS }]), "fine");
    assert.ok(next.ok && next.result.failures.length === 0, JSON.stringify(next));
  });

  it("Compare Templates' markers are the runner's; a value bomb that exhausts the helper's heap is an error naming it", async () => {
    const p = cases(60_000);
    assert.deepEqual(await p.markers(QWEN3_CHAT_TEMPLATE), { ok: true, markers: markersOf(new TemplateDocument(QWEN3_CHAT_TEMPLATE)) });
    const { value, turns } = await whileResponsive(() => p.markers(HEAP_BOMB));
    assert.deepEqual(value, {
      ok: false,
      message: `this template exhausted the render memory limit (${HELPER_HEAP_MB} MB) at line 3; its process was stopped`,
      at: BOMB_AT,
    });
    assert.ok(turns > 0, "the event loop turned while the template was probed");
  });

  it("a case past the time limit fails naming the limit", async () => {
    const reply = await run(cases(1000, SLOW_HEAP_MB), suite(SLOW, [{ name: "slow", ...RENDERS }]), "slow");
    assert.deepEqual(reply, {
      ok: false,
      message: "this template ran past the render time limit (1 s) at line 3; its process was stopped",
      at: SLOW_AT,
    });
  });
});
