// The preview's dialect columns render in helper processes with a heap and a time limit (issue 17): the same
// outcome as rendering in process, and a template that exhausts a limit is an error in its column that names
// the limit, while the extension host (this test's process) and the next render go on.
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { after, describe, it } from "node:test";
import { dialectProcessEngines } from "../../../client/src/preview/engines/dialectProcess";
import { dialectEngines, type EngineInput, type EngineOutcome, type PreviewEngine } from "../../../client/src/preview/engines/engine";
import { TemplateDocument } from "../../../server/src/document";
import { parseJson, type PyDict } from "../../../server/src/interpreter";
import { HOSTILE_TEMPLATES } from "../../helpers/hostileTemplates";

/** The bundled helper, as the extension starts it (dist/ is built before the tests). */
const WORKER = resolve(__dirname, "../../../dist/dialectWorker.js");
const NOW = { year: 2026, month: 1, day: 2, hour: 3, minute: 4, second: 5, microsecond: 0 };
const JSON_CONTEXT = JSON.stringify({ messages: [{ role: "user", content: "hi" }], add_generation_prompt: true });
const TEMPLATE = "{% for m in messages %}<|{{ m.role }}|>{{ m.content | upper }}\n{% endfor %}{{ strftime_now('%Y') }}{{ missing.x }}";
const hostile = (name: string) => HOSTILE_TEMPLATES.find((h) => h.name === name)!.template;
/** The catalogue's "list doubled 40 times" with every statement after line 1 on line 3: the doubling there exhausts the heap. */
const DOUBLING_ON_3 =
  "{% set ns = namespace(s=[1]) %}\n\n{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}{% endfor %}{{ ns.s|length }}";
/** Per-character work inside a builtin, which the step budget does not count, on bounded values: on line 3. */
const SLOW_ON_3 = "{% set s = 'ab ' * 1000000 %}\n\n{% for i in range(100) %}{{ s|title|length }}{% endfor %}";

function input(template: string): EngineInput {
  return { doc: new TemplateDocument(template), context: parseJson(JSON_CONTEXT) as PyDict, json: JSON_CONTEXT, now: NOW };
}

function errorOf(outcome: EngineOutcome | null): string {
  assert.ok(outcome && outcome.status === "error", JSON.stringify(outcome));
  return outcome.error.message;
}

describe("dialect columns in helper processes", () => {
  const opened: PreviewEngine[] = [];
  const engines = (timeoutMs: number, memoryMb: number) => {
    const e = dialectProcessEngines({ command: process.execPath, args: [WORKER], timeoutMs, memoryMb });
    opened.push(...e);
    return e;
  };
  after(() => opened.forEach((e) => e.dispose()));

  it("render what the dialects render in process, with provenance and errors", async () => {
    const inProcess = dialectEngines();
    const isolated = engines(30_000, 1024);
    assert.deepEqual(
      isolated.map((e) => e.id),
      inProcess.map((e) => e.id),
    );
    for (const [i, e] of isolated.entries()) {
      assert.deepEqual(await e.render(input(TEMPLATE)), inProcess[i].render(input(TEMPLATE)), e.id);
      assert.equal(e.note(), inProcess[i].note());
    }
  });

  it("render the llama-server column for the flags the user's server starts with (chatTemplate.llamaServer.args)", async () => {
    const server = engines(30_000, 1024).find((e) => e.id === "llama-server")!;
    const t = "{{ preserve_thinking }}|{{ lang }}";
    const plain = await server.render(input(t));
    assert.equal(plain?.status === "ok" && plain.output, "True|");
    const started = await server.render({
      ...input(t),
      serverArgs: ["--no-reasoning-preserve", "--chat-template-kwargs", '{"lang":"fr"}'],
    });
    assert.equal(started?.status === "ok" && started.output, "False|fr");
    assert.match(
      errorOf(await server.render({ ...input(t), serverArgs: ["--port", "1"] })),
      /^chatTemplate\.llamaServer\.args: --port: not a llama-server flag/,
    );
  });

  it("turn a value bomb that exhausts the heap into an error in its column, and render the next template", async () => {
    const [jinja2] = engines(60_000, 64);
    assert.match(errorOf(await jinja2.render(input(hostile("list doubled 40 times")))), /exhausted the render memory limit \(64 MB\)/);
    const next = await jinja2.render(input("{{ messages[0].content }}"));
    assert.equal(next?.status === "ok" && next.output, "hi");
  });

  it("place a value bomb that exhausts the heap at the statement its render had reached", async () => {
    const [jinja2] = engines(60_000, 64);
    const outcome = await jinja2.render(input(DOUBLING_ON_3));
    assert.match(errorOf(outcome), /exhausted the render memory limit \(64 MB\) at line 3;/);
    assert.ok(outcome?.status === "error");
    const { start, end, line, column } = outcome.error;
    assert.deepEqual(
      { start, end, line, column },
      {
        start: DOUBLING_ON_3.indexOf("{% set ns.s"),
        end: DOUBLING_ON_3.indexOf("{% endfor"),
        line: 3,
        column: DOUBLING_ON_3.indexOf("{% set ns.s") - DOUBLING_ON_3.lastIndexOf("\n"),
      },
    );
  });

  it("place a render past the time limit at the statement it had reached", async () => {
    const [jinja2] = engines(1000, 1024);
    const outcome = await jinja2.render(input(SLOW_ON_3));
    assert.match(errorOf(outcome), /ran past the render time limit \(1 s\) at line 3;/);
    assert.ok(outcome?.status === "error");
    const { start, end, line } = outcome.error;
    assert.deepEqual({ start, end, line }, { start: SLOW_ON_3.indexOf("{{ s|title"), end: SLOW_ON_3.indexOf("{% endfor"), line: 3 });
  });

  it("turn a render past the time limit into an error in its column", async () => {
    const [jinja2] = engines(1000, 1024);
    // per-character work inside a builtin, which the step budget does not count, on bounded values
    const slow = "{% set s = 'ab ' * 1000000 %}{% for i in range(100) %}{{ s|title|length }}{% endfor %}";
    assert.match(errorOf(await jinja2.render(input(slow))), /ran past the render time limit \(1 s\)/);
    const again = await jinja2.render(input("{{ messages|length }}"));
    assert.equal(again?.status === "ok" && again.output, "1");
  });
});
