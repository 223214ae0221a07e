// Value semantics that need many inputs to pin down, compared with the engine itself: std::sort's
// order of equal keys, byte-wise string slicing, and the addon's conversion of the context.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { llamacpp_0_5_0 } from "../../../../server/src/dialects/llamacpp-v0.5.0";
import { TemplateDocument } from "../../../../server/src/document/document";
import type { PyDict } from "../../../../server/src/interpreter/dict";
import { fromJS, parseJson } from "../../../../server/src/interpreter/json";
import { render } from "../../../../server/src/interpreter/render";
import { rng } from "../../../helpers/random";
import { llamaCppErrorCause, renderRealLlamaCpp } from "../../../helpers/realLlamaCpp";

function ours(template: string, context: PyDict) {
  const r = render(new TemplateDocument(template), context, { dialect: llamacpp_0_5_0 });
  return r.error ? { error: r.error.message } : { out: r.output };
}
const same = (template: string, context: Record<string, unknown>) => {
  const real = renderRealLlamaCpp(template, context);
  assert.deepEqual(ours(template, fromJS(context) as PyDict), "out" in real ? real : { error: llamaCppErrorCause(real.error) }, template);
};

describe("llamacpp sort is std::sort (unstable)", () => {
  it("orders equal keys as libstdc++ does, for lists of every length up to 70", () => {
    const r = rng(3);
    for (let n = 1; n <= 70; n++) {
      const items = Array.from({ length: n }, (_, i) => ({ k: Math.floor(r() * 4), i }));
      same(
        "{{ xs|sort(attribute='k')|map(attribute='i')|join(',') }}|{{ xs|sort(attribute='k', reverse=true)|map(attribute='i')|join(',') }}",
        { xs: items },
      );
      same("{% for k, v in d|dictsort(by='value') %}{{ k }}{% endfor %}", { d: Object.fromEntries(items.map((x) => [`k${x.i}`, x.k])) });
    }
  });
  it("keeps mixed types where value_compare cannot order them", () => {
    same("{{ [3, 'a', none, 1, [2], 'b', true, 0.5]|sort|string }}", {});
  });
});

describe("llamacpp strings are UTF-8 bytes", () => {
  it("slices and indexes by byte; a cut character is U+FFFD", () => {
    for (const s of ["日本語", "aé日😀", "é"]) {
      const n = new TextEncoder().encode(s).length;
      for (let i = 0; i <= n; i++) {
        same(`{{ x[${i}:] }}|{{ x[:${i}] }}|{{ x[${i}] }}|{{ x[${i}::2] }}|{{ x|length }}`, { x: s });
      }
    }
  });
});

describe("llamacpp context conversion (node-llama-cpp's addon)", () => {
  it("reads an integral float as an int", () => {
    assert.deepEqual(ours("{{ g }} {{ g is integer }} {{ f }}", parseJson('{"g": 1.0, "f": 2.5}') as PyDict), { out: "1 True 2.5" });
    same("{{ g }} {{ g is integer }} {{ f }}", { g: 1.0, f: 2.5 });
  });
  it("refuses a number beyond int64 for the whole render, in the engine's words", () => {
    const r = ours("x", parseJson('{"big": 12345678901234567890}') as PyDict);
    // eslint-disable-next-line no-loss-of-precision -- the real engine is handed the JS number this literal rounds to, as JSON.parse would
    const real = renderRealLlamaCpp("x", { big: 12345678901234567890 });
    assert.ok("error" in real);
    assert.deepEqual(r, { error: real.error.replace(/\n.*/s, "") });
  });
  it("keeps ints beyond 2^53 as the JS number they were", () => {
    same("{{ x }} {{ x + 1 }}", { x: 2 ** 60 });
    assert.deepEqual(ours("{{ x }}", parseJson('{"x": 1152921504606846977}') as PyDict), { out: "1152921504606846976" });
  });
  it("turns a lone surrogate into U+FFFD", () => {
    same("{{ x }}|{{ x|length }}", { x: "a\ud800b" });
  });
});

describe("llamacpp limits", () => {
  it("refuses a string beyond the output limit where a builtin would build it, at the node", () => {
    // Built first, the first two would exceed what a JS string can hold (a RangeError, not an error at a node).
    for (const t of [
      "{{ ('a' * 1000000).replace('a', 'b' * 1000) }}",
      "{{ ('a\\n' * 1000000)|indent('x' * 1000) }}",
      "{{ 'ab' * 100000000 }}",
      "{{ range(100000000)|length }}",
    ]) {
      const r = render(new TemplateDocument(t), parseJson("{}") as PyDict, { dialect: llamacpp_0_5_0 });
      assert.ok(r.error && r.error.code.startsWith("limit/"), `${t}: ${r.error?.code}`);
      assert.ok(r.error.start >= 3, "located in the template");
    }
  });

  it("spends a step on each part a string operation copies or maps (a string of millions of parts is not free)", () => {
    // 'a' * 16000000 is 16 million parts, each transformed on its own by title: it ran 30 s, now a step limit
    const limits = { steps: 100_000 };
    const cases: [string, string][] = [
      ["{{ ('a' * 200000)|length }}", "'a' * 200000"],
      ["{% set ns = namespace(s='a') %}{% for i in range(17) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}", "ns.s ~ ns.s"],
      ["{% set s = 'a' * 60000 %}{{ s|title|length }}", "s|title"],
    ];
    for (const [t, at] of cases) {
      const r = render(new TemplateDocument(t), parseJson("{}") as PyDict, { dialect: llamacpp_0_5_0, limits });
      assert.equal(r.error?.code, "limit/steps", t);
      assert.equal(t.slice(r.error.start, r.error.end), at, t);
    }
  });
});
