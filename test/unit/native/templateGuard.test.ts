// Templates that would crash or hang llama.cpp's Jinja engine (it has no limits) are refused with a
// TemplateLimitError that names the limit and where it was hit, before that engine runs them; the
// process goes on. Without the guard these tests segfault the test process or never finish.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it, type TestOptions } from "node:test";
import { loadBackend } from "../../../native/engine/backend";
import { ChatTemplate, renderTemplate } from "../../../native/engine/chat";
import { EngineError, TemplateLimitError, TemplateRefusedError } from "../../../native/engine/errors";
import type { NativeChatTemplates } from "../../../native/engine/native";
import { requestContexts, type TemplateInputs } from "../../../server/src/analysis";
import { GuardProcess } from "../../../server/src/guard/guardProcess";
import { servedTemplates } from "../../../server/src/guard/servedTemplates";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";
import { probeCaps } from "../../../server/src/analysis/caps/capsProbe";
import { llamacpp_0_5_0 } from "../../../server/src/dialects/llamacpp-v0.5.0";
import { TemplateDocument } from "../../../server/src/document/document";
import { copyWithMetadata, setChatTemplate } from "../../../server/src/gguf/copy";
import { render } from "../../../server/src/interpreter/render";
import { corpusDir } from "../../helpers/corpus";
import { loadEngine, modelDir, randomPair } from "../../helpers/native";
import { HANG_GUARD_MS } from "../../helpers/hangGuard";

// a regression hangs instead of failing: bound each test
const bounded: TestOptions = { timeout: HANG_GUARD_MS };

/** Overflows llama.cpp's stack: the process dies of SIGSEGV. */
const RECURSIVE = "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}";
/** llama.cpp builds the list, then loops over it: hours. */
const RANGE = "{% for i in range(10000000000) %}{{ i }}{% endfor %}";
/** Deeper than llama.cpp's recursive-descent parser can go. */
const NESTED = `{{ ${"(".repeat(5000)}1${")".repeat(5000)} }}`;
/** Fine on every request but two: the runaway depends on the messages. */
const ON_REQUEST =
  "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{% for m in messages %}" +
  "{% if m.content == 'loop' %}{% for i in range(10000000000) %}{% endfor %}{% elif m.content == 'recurse' %}{{ f(0) }}{% endif %}" +
  "<{{ m.role }}>{{ m.content }}{% endfor %}";

/** Our port does not reproduce assigning to `loop`: what follows it went unchecked, and llama.cpp ran it. */
const LOOP_X = "{% for i in [1] %}{% set loop.x = 1 %}{% endfor %}";
/** SIGFPE in llama.cpp, the divisor from the last user message ("div:0"). */
const DIVISOR_FROM_USER =
  "{% for m in messages %}{% if m.content.startswith('div:') %}{{ 4 is divisibleby(m.content[4:]|int) }}{% endif %}" +
  "<{{ m.role }}>{{ m.content }}{% endfor %}";

async function refused(p: Promise<unknown>, line: number, column: number, what: RegExp): Promise<void> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  assert.ok(e instanceof TemplateRefusedError, String(e));
  assert.deepEqual([e.code, e.line, e.column], ["template_refused", line, column], e.message);
  assert.match(e.message, new RegExp(`^chat template refused at line ${line}, column ${column}: `));
  assert.match(e.message, what);
}

async function refusal(p: Promise<unknown>): Promise<TemplateLimitError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  assert.ok(e instanceof TemplateLimitError, String(e));
  assert.equal(e.code, "template_limit");
  return e;
}

function limitAt(e: TemplateLimitError, limit: TemplateLimitError["limit"], line: number, column: number, what: RegExp) {
  assert.deepEqual([e.limit, e.line, e.column], [limit, line, column], e.message);
  assert.match(
    e.message,
    new RegExp(`^chat template exceeds the ${limit === "steps" ? "step" : limit} limit at line ${line}, column ${column}: `),
  );
  assert.match(e.message, what);
}

describe("template guard", () => {
  it("refuses a recursive macro and a huge loop at ChatTemplate.fromSource, in llama.cpp's capability probe", bounded, async () => {
    limitAt(
      await refusal(ChatTemplate.fromSource(RECURSIVE)),
      "recursion",
      1,
      20,
      /macro calls nested deeper than 200 \(rendering llama\.cpp's capability probe typed_content\)/,
    );
    limitAt(
      await refusal(ChatTemplate.fromSource(RANGE)),
      "steps",
      1,
      13,
      /step budget of \d+ exceeded \(rendering llama\.cpp's capability probe typed_content\)/,
    );
    limitAt(await refusal(ChatTemplate.fromSource(NESTED)), "nesting", 1, 5003, /it nests too deeply to parse; /);
  });

  it("refuses a request that makes the template run away, with the line and column, and serves the next one", bounded, async () => {
    const t = await ChatTemplate.fromSource(ON_REQUEST);
    const apply = (content: string) =>
      t.apply({
        messages: [
          { role: "user", content: "hi" },
          { role: "assistant", content: "ok" },
          { role: "user", content },
        ],
      });
    limitAt(await refusal(apply("loop")), "steps", 1, 108, /\(rendering the request\)/);
    limitAt(await refusal(apply("recurse")), "recursion", 1, 20, /\(rendering the request\)/);
    assert.equal((await apply("again")).prompt, "<user>hi<assistant>ok<user>again");
  });

  it("refuses the same through renderTemplate, and output out of all proportion to the input", bounded, async () => {
    limitAt(await refusal(renderTemplate(RECURSIVE, {})), "recursion", 1, 20, /\(rendering the template variables\)/);
    limitAt(await refusal(renderTemplate(RANGE, {})), "steps", 1, 13, /\(rendering the template variables\)/);
    limitAt(await refusal(renderTemplate(NESTED, {})), "nesting", 1, 5003, /nests too deeply/);
    // one string of a million characters (`'x' * 1000000` is a million parts in llama.cpp, each printed with its
    // provenance: that reaches the memory limit before the output limit)
    const huge = "{% set s = ('x' * 1000)|replace('x', 'x' * 1000) %}{% for i in range(n) %}{{ s }}{% endfor %}";
    limitAt(await refusal(renderTemplate(huge, { n: 100 })), "output", 1, 75, /output exceeds the limit of \d+ characters/);
    assert.equal((await renderTemplate(huge, { n: 2 })).length, 2_000_000);
  });

  it("refuses what follows a construct it does not reproduce instead of passing it through unchecked", bounded, async () => {
    for (const after of [RECURSIVE, RANGE]) {
      const why =
        /assigning to a loop attribute is not reproduced \(rendering llama\.cpp's capability probe typed_content\); the template guard cannot vouch/;
      await refused(ChatTemplate.fromSource(LOOP_X + after), 1, 19, why);
      await refused(renderTemplate(LOOP_X + after, {}), 1, 19, /\(rendering the template variables\)/);
    }
  });

  it(
    "refuses divisibleby(0), which crashes llama.cpp, at its node: in the template, and with the divisor from a request",
    bounded,
    async () => {
      await refused(
        ChatTemplate.fromSource("{{ 4 is divisibleby(0) }}"),
        1,
        4,
        /divisibleby\(0\) crashes llama\.cpp \(SIGFPE\) \(rendering llama\.cpp's capability probe/,
      );
      await refused(renderTemplate("{{ 4 is divisibleby(n) }}", { n: 0 }), 1, 4, /\(rendering the template variables\)/);
      const t = await ChatTemplate.fromSource(DIVISOR_FROM_USER);
      const apply = (content: string) => t.apply({ messages: [{ role: "user", content }] });
      await refused(apply("div:0"), 1, 64, /divisibleby\(0\) crashes llama\.cpp \(SIGFPE\) \(rendering the request\)/);
      assert.equal((await apply("div:2")).prompt, "True<user>div:2");
    },
  );

  it("refuses a range whose int64 counter wraps, which llama.cpp never ends, at the step limit", bounded, async () => {
    const wraps = "{{ range(-9223372036854775807 - 1, 9223372036854775807, 9223372036854775807)|list }}";
    limitAt(await refusal(renderTemplate(wraps, {})), "steps", 1, 4, /\(rendering the template variables\)/);
    assert.equal(
      await renderTemplate("{{ range(9223372036854775805, 9223372036854775807)|join(',') }}", {}),
      "9223372036854775805,9223372036854775806",
    );
  });

  it(
    "runs in a process of its own: a render that exhausts the guard's memory is refused, and the next check gets a fresh process",
    bounded,
    async () => {
      // within every limit but the heap: one string of 60 million two-byte characters (120 MB), built in one
      // go where no limit is measured (the output limit grows with the 2 MB input; many values, each within it,
      // end at the memory limit instead, see valueBounds.test.ts)
      const big = "{% set s = ('日' * 1000)|replace('日', ('日' * 1000)|replace('日', '日' * n)) %}{{ s|length }}";
      const guard = new GuardProcess(128);
      const check = (n: number) =>
        guard.check({ op: "render", source: big, json: JSON.stringify({ n, pad: "x".repeat(2_000_000) }) }, "the template variables");
      const e = await check(60);
      assert.equal(e?.kind, "refused", JSON.stringify(e));
      assert.match(
        e.message,
        /^chat template refused: the template guard could not check it: it exhausted the guard's memory \(128 MiB\) or aborted it \(rendering the template variables\); /,
      );
      assert.equal(await check(2), null);
      assert.equal(guard.started, 2);
    },
  );

  it("a check past the guard's time limit is refused, and its process replaced", bounded, async () => {
    // 50 ms: less than the guard's process takes to start, so every check here runs out of time
    const guard = new GuardProcess(128, 50);
    const check = () => guard.check({ op: "render", source: "{{ 1 }}", json: "{}" }, "the template variables");
    for (let i = 1; i <= 2; i++) {
      const e = await check();
      assert.equal(e?.kind, "refused", JSON.stringify(e));
      assert.match(e.message, /could not check it: it took longer than 0\.05 s/);
      assert.equal(guard.started, i);
    }
  });

  it("refuses a value bomb, which aborted V8 in process, and goes on", bounded, async () => {
    const bomb = "{% set ns = namespace(s=[1]) %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}{% endfor %}{{ ns.s|length }}";
    const e = await ChatTemplate.fromSource(bomb).then(
      () => null,
      (x: unknown) => x,
    );
    assert.ok(e instanceof TemplateRefusedError || e instanceof TemplateLimitError, String(e));
    assert.equal(await renderTemplate("{{ n + 1 }}", { n: 1 }), "2");
  });

  it("refuses input nested deeper than it can check, as an invalid argument", bounded, async () => {
    const deep = (n: number): unknown => JSON.parse("[".repeat(n) + "]".repeat(n));
    const e = await renderTemplate("{{ x | length }}", { x: deep(1500) }).catch((x: Error) => x);
    assert.ok(e instanceof EngineError && !(e instanceof TemplateLimitError), String(e));
    assert.deepEqual(
      [e.code, e.message],
      [
        "invalid_argument",
        "values in the template variables nest 1501 levels deep; a chat template is checked against at most 1000 levels",
      ],
    );
    assert.equal(await renderTemplate("{{ x | length }}", { x: deep(900) }), "1");
  });

  it("checks a model's own templates, its tool_use variant included, and text given in their place", bounded, async () => {
    const own = await loadEngine({ ...randomPair(1, { chatTemplate: RANGE }, "runawayTemplate") });
    limitAt(await refusal(own.chatTemplate()), "steps", 1, 13, /capability probe/);
    assert.ok((await own.chatTemplate(QWEN3_CHAT_TEMPLATE)).source.includes("<|im_start|>"));
    const toolUse = join(modelDir, "recursive-tool-use.gguf");
    await copyWithMetadata(randomPair(1).target, toolUse, setChatTemplate(RECURSIVE, "tool_use"));
    const engine = await loadEngine({ target: toolUse });
    limitAt(await refusal(engine.chatTemplate()), "recursion", 1, 20, /capability probe/);
    limitAt(await refusal(engine.chatTemplate(RECURSIVE)), "recursion", 1, 20, /capability probe/);
  });

  it("lets every corpus template × scenario through, and sees the contexts llama.cpp's chat layer renders", bounded, async () => {
    const { addon } = loadBackend();
    const dialect = { ...llamacpp_0_5_0, context: undefined };
    const scenarios = JSON.parse(readFileSync(corpusDir("scenarios.json"), "utf8")) as Record<string, Record<string, unknown>>;
    // pairs whose messages a hand-written handler of llama.cpp's reshapes before rendering (an outdated Gemma 4
    // template's tool responses, Magistral's reasoning): the guard renders them as they came
    const reshaped = new Set([
      "google-gemma-4-31B-it-interleaved × tool-call-roundtrip",
      "google-gemma-4-31B-it-interleaved × parallel-tool-calls",
      "google-gemma-4-31B-it-interleaved × string-arguments",
      "unsloth-mistral-Devstral-Small-2507 × reasoning",
    ]);
    let same = 0;
    for (const f of readdirSync(corpusDir("templates"))
      .filter((x) => x.endsWith(".jinja"))
      .sort()) {
      const text = readFileSync(corpusDir("templates", f), "utf8");
      const t = await ChatTemplate.fromSource(text, { bos: "<|bos|>", eos: "<|eos|>" });
      const native = (await addon.createChatTemplates(text, "<|bos|>", "<|eos|>")) as NativeChatTemplates;
      const served = servedTemplates(text).default!;
      const doc = new TemplateDocument(served);
      const caps = probeCaps(doc, dialect).caps;
      for (const [scenario, request] of Object.entries(scenarios)) {
        const prompt = await t.apply(request as never).then(
          (p) => p.prompt,
          (e: Error) => e,
        );
        if (prompt instanceof Error) {
          assert.ok(!(prompt instanceof TemplateLimitError), `${f} × ${scenario}: ${prompt.message}`);
          continue;
        }
        // the prompt is the render with the request's add_generation_prompt; a continued message's text follows it
        const inputs = JSON.parse(await native.templateInputs(JSON.stringify(request))) as TemplateInputs;
        const contexts = requestContexts({ source: served, caps, bos: "<|bos|>", eos: "<|eos|>" }, inputs, new Date())!;
        const ours = render(doc, contexts[inputs.add_generation_prompt ? 1 : 0], { dialect }).output;
        const name = `${f.replace(/\.jinja$/, "")} × ${scenario}`;
        if (reshaped.has(name)) continue;
        if (inputs.continue_final_message) assert.ok(prompt.startsWith(ours), name);
        else assert.equal(ours, prompt, name);
        same++;
      }
    }
    assert.ok(same > 600, String(same));
  });
});
