import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dialectFor, registeredEngines } from "../../../server/src/dialects/index";
import { TemplateDocument } from "../../../server/src/document/document";
import { render } from "../../../server/src/interpreter/render";
import { collectGarbage } from "../../helpers/gc";
import { HOSTILE_TEMPLATES } from "../../helpers/hostileTemplates";

// Small limits keep each case fast; the bounds are the same checks at any size (the reliability
// suite runs the same templates at the default limits in a memory-capped process).
const LIMITS = { output: 1 << 20, steps: 2_000_000 };

describe("value bounds: every engine refuses a value over the output limit before building it", () => {
  for (const bomb of HOSTILE_TEMPLATES.filter((h) => h.limitIn)) {
    it(bomb.name, () => {
      for (const engine of registeredEngines()) {
        const doc = new TemplateDocument(bomb.template);
        const r = render(doc, {}, { dialect: dialectFor(engine)!, limits: LIMITS });
        if (!bomb.limitIn!.includes(engine)) continue;
        assert.ok(r.error?.code.startsWith("limit/"), `${engine}: ${r.error ? `${r.error.code} ${r.error.message}` : "rendered"}`);
        assert.ok(r.error!.nodeId >= 0 && r.error!.end > r.error!.start, `${engine}: located at a node`);
      }
    });
  }

  it("the limit error is at the operation that would build the value", () => {
    const doc = new TemplateDocument("{% set ns = namespace(s=[1]) %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}{% endfor %}");
    for (const engine of registeredEngines()) {
      const r = render(doc, {}, { dialect: dialectFor(engine)!, limits: LIMITS });
      assert.equal(doc.text.slice(r.error!.start, r.error!.end), "ns.s + ns.s", engine);
      assert.match(r.error!.message, /output limit of 1048576/, engine);
    }
  });

  it("a value that prints far more than it holds is measured before printing", () => {
    // 30 levels of [x, x]: 30 small lists in memory, 2^30 items printed.
    const doc = new TemplateDocument(
      "{% set ns = namespace(s=[1]) %}{% for i in range(30) %}{% set ns.s = [ns.s, ns.s] %}{% endfor %}{{ ns.s }}",
    );
    for (const engine of registeredEngines()) {
      const r = render(doc, {}, { dialect: dialectFor(engine)!, limits: LIMITS });
      assert.equal(r.error?.code, "limit/output", engine);
      assert.equal(doc.text.slice(r.error!.start, r.error!.end), "{{ ns.s }}", engine);
    }
  });

  it("a value the output limit allows still renders in every engine", () => {
    const doc = new TemplateDocument(
      "{% set ns = namespace(s=[1]) %}{% for i in range(10) %}{% set ns.s = ns.s + ns.s %}{% endfor %}{{ ns.s|length }}",
    );
    for (const engine of registeredEngines()) {
      const r = render(doc, {}, { dialect: dialectFor(engine)!, limits: LIMITS });
      assert.equal(r.error, null, engine);
      assert.equal(r.output, "1024", engine);
    }
  });

  it("values that are each within the output limit but together past the memory limit end at a node", () => {
    // 1,000 distinct strings of half a million characters: 500 MB held, within the output limit one by one (issue 17: minja
    // aborted V8 on 16 MB ones, the other engines ran until the heap was exhausted).
    const doc = new TemplateDocument(
      "{% set kept = namespace(l=[]) %}{% for i in range(1000) %}{% set kept.l = kept.l + [(i ~ big)|upper] %}{% endfor %}{{ kept.l|length }}",
    );
    for (const engine of registeredEngines()) {
      // the characters upper reads and builds cost steps: 1,000 × 1 MB of them is within these
      const limits = { ...LIMITS, memory: 64 * 2 ** 20, steps: 50_000_000 };
      // the memory limit counts from the heap as the render finds it, garbage included: the previous engine's 500 MB
      // of discarded strings would otherwise raise that base past what this render holds
      collectGarbage();
      const r = render(doc, { big: "x".repeat(2 ** 19) }, { dialect: dialectFor(engine)!, limits });
      assert.equal(r.error?.code, "limit/memory", `${engine}: ${r.error ? r.error.message : "rendered"}`);
      assert.match(r.error!.message, /memory limit of 64 MiB/, engine);
      assert.ok(r.error!.nodeId >= 0 && r.error!.end > r.error!.start, `${engine}: located at a node`);
    }
  });

  it("the memory limit leaves a render that holds little alone", () => {
    const doc = new TemplateDocument("{% for i in range(1000) %}{{ (i ~ big)|upper|length }}{% endfor %}");
    for (const engine of registeredEngines()) {
      // the characters upper reads and builds cost steps: 1,000 × 1 MB of them is within these
      const limits = { ...LIMITS, memory: 64 * 2 ** 20, steps: 50_000_000 };
      const r = render(doc, { big: "x".repeat(2 ** 19) }, { dialect: dialectFor(engine)!, limits });
      assert.equal(r.error, null, engine);
    }
  });

  it("builtins are charged for the characters they read and build: a loop over a huge string's builtins ends at the step limit", () => {
    const big = "{% set big = 'x' * 1000000 %}";
    const loop = "{% for i in range(200) %}{% set y = big|upper %}{% set z = big.startswith('y') %}{% endfor %}";
    const ran: string[] = [];
    for (const engine of registeredEngines()) {
      const dialect = dialectFor(engine)!;
      // engines without str * int (or that charge a step per character of it) have no huge string to loop over
      if (render(new TemplateDocument(big), {}, { dialect, limits: LIMITS }).error) continue;
      ran.push(engine);
      const doc = new TemplateDocument(big + loop);
      const r = render(doc, {}, { dialect, limits: { ...LIMITS, steps: 1_200_000 } });
      assert.equal(r.error?.code, "limit/steps", `${engine}: ${r.error?.message ?? "rendered"}`);
      const at = doc.text.slice(r.error!.start, r.error!.end);
      assert.ok(["big|upper", "big.startswith('y')"].includes(at), `${engine}: at ${at}`);
    }
    assert.ok(
      ["jinja2", "minja"].every((e) => ran.includes(e)),
      ran.join(),
    );
  });

  it("V8's own ceilings reached by a builtin become the output limit, never a RangeError", () => {
    // `%c` of a code point past U+10FFFF is Python's OverflowError, not a host exception either.
    for (const t of ["{{ '%c' % 10000000000 }}"]) {
      const r = render(new TemplateDocument(t), {}, { dialect: dialectFor("jinja2")!, limits: LIMITS });
      assert.ok(r.error && !r.error.message.includes("RangeError"), t);
    }
  });
});
