import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { errorSource, run } from "./renderHelper";

describe("limits: exceeding one is an error at a location, never a hang", () => {
  it("steps: nested loops over big ranges stop at the step budget", () => {
    const r = run("{% for a in range(100000) %}{% for b in range(100000) %}{{ b }}{% endfor %}{% endfor %}", "{}", { steps: 300_000 });
    assert.equal(r.error?.code, "limit/steps");
    assert.match(r.error!.message, /step budget of 300000/);
    assert.ok(r.output.length > 0, "the output up to the limit is kept");
    assert.ok(r.error!.start > 0, "located inside the loops, not at the template");
  });

  it("steps: work inside builtins counts (join over a long list)", () => {
    const r = run("{{ range(100000) | join(',') }}", "{}", { steps: 1000 });
    assert.equal(r.error?.code, "limit/steps");
    assert.equal(errorSource(r), "range(100000) | join(',')");
  });

  it("output: the rendered text may not outgrow the limit", () => {
    const r = run("{% for i in range(100000) %}0123456789{% endfor %}", "{}", { output: 1000 });
    assert.equal(r.error?.code, "limit/output");
    assert.equal(r.output.length, 1000);
    assert.equal(errorSource(r), "0123456789");
  });

  it("output: nor may a string or list built on the way", () => {
    for (const t of [
      "{% set s = 'x' * 100000000 %}",
      "{% set l = [1] * 100000000 %}",
      "{% set ns = namespace(s='ab') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
    ]) {
      const r = run(t, "{}", { output: 1 << 20 });
      assert.equal(r.error?.code, "limit/output", t);
    }
  });

  it("output: an integer power too large to compute is refused", () => {
    const r = run("{{ 2 ** 100000000 }}");
    assert.equal(r.error?.code, "limit/output");
    assert.equal(errorSource(r), "2 ** 100000000");
  });

  it("recursion: a macro calling itself stops at the nesting limit, at the call", () => {
    const r = run("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}", "{}", { recursion: 50 });
    assert.equal(r.error?.code, "limit/recursion");
    assert.equal(errorSource(r), "f(n + 1)");
  });

  it("recursion: a recursive loop that never bottoms out stops too", () => {
    const r = run("{% for x in [1] recursive %}{{ loop([1]) }}{% endfor %}", "{}", { recursion: 30 });
    assert.equal(r.error?.code, "limit/recursion");
  });

  it("range() keeps the sandbox's MAX_RANGE, as Jinja2 does", () => {
    const r = run("{% for i in range(200000) %}{% endfor %}");
    assert.equal(r.error?.code, "runtime/overflow");
    assert.equal(r.error?.message, "OverflowError: Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).");
  });

  it("the defaults let every real template through", () => {
    const r = run("{% for i in range(1000) %}{{ i }}{% endfor %}");
    assert.equal(r.error, null);
  });
});
