import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { engineFindings } from "../../../server/src/analysis/engineChecks";
import { readFileSync } from "node:fs";
import { BUILTIN_SCENARIOS } from "../../../server/src/analysis/scenarios";
import { fromJS } from "../../../server/src/interpreter/json";
import type { PyDict } from "../../../server/src/interpreter/dict";
import type { Scenario } from "../../../server/src/analysis/scenario";
import { dialectFor } from "../../../server/src/dialects/index";
import { TemplateDocument } from "../../../server/src/document/document";
import { corpusDir } from "../../helpers/corpus";

const jinja2 = dialectFor("jinja2")!;
const minja = dialectFor("minja")!;
const scenario = (name: string, data: Record<string, unknown>): Scenario => ({ name, data: fromJS(data) as PyDict });
const user = (content: unknown) => ({ messages: [{ role: "user", content }] });

function check(text: string, scenarios: Scenario[]) {
  const doc = new TemplateDocument(text);
  const slice = (f: { start: number; end: number }) => text.slice(f.start, f.end);
  return { doc, findings: engineFindings(doc, [jinja2, minja], scenarios, { nullToolsProbe: false }), slice };
}

describe("engine checks by rendering the scenarios", () => {
  it("locates a divergence at the node whose output first differs, with the cause in words", () => {
    const text =
      "{%- macro render(item) -%}\n{{ item | trim }}\n{%- endmacro -%}\n{%- for m in messages %}[{{ render(m.content) }}]{%- endfor %}";
    const { findings, slice } = check(text, [
      scenario("none-content", {
        messages: [
          { role: "user", content: "a" },
          { role: "assistant", content: null },
          { role: "user", content: "b" },
        ],
      }),
    ]);
    const d = findings.find((f) => f.code === "minja/renders-differently");
    assert.ok(d, JSON.stringify(findings));
    assert.equal(slice(d), "{{ item | trim }}");
    assert.equal(d.severity, "warning");
    assert.match(d.message, /None prints as '' in minja, 'None' in Jinja2/);
    assert.deepEqual(d.scenarios, ["none-content"]);
  });

  it("a continue that discards what its loop pass printed: on the continue, not on the lookup whose bytes it lost (EXAONE 4)", () => {
    const text =
      "{%- for m in messages %}<{{ m.role }}>{%- if m.role == 'tool' %}{{ {'tool': 'T'}[m.role] }}{%- continue %}{%- endif %}{{ m.content }}{%- endfor %}";
    const messages = [
      { role: "user", content: "a" },
      { role: "tool", content: "r" },
      { role: "user", content: "b" },
    ];
    const doc = new TemplateDocument(text);
    for (const [engine, discards] of [
      [dialectFor("llamacpp")!, "what the loop body's statement around it had printed in that pass"],
      [dialectFor("hfjinja")!, "everything its loop pass had printed"],
    ] as const) {
      const found = engineFindings(doc, [jinja2, engine], [scenario("tool", { messages })], { nullToolsProbe: false });
      const d = found.find((f) => f.code === `${engine.engine}/renders-differently`);
      assert.ok(d, JSON.stringify(found));
      assert.equal(text.slice(d.start, d.end), "{%- continue %}", engine.engine);
      assert.ok(d.message.includes(`this {% continue %} discards ${discards}`), d.message);
    }
  });

  it("names the filter whose output differs, and otherwise the expression", () => {
    const { findings, slice } = check("[{{ none_value | upper }}][{{ 7 / 2 }}]", [scenario("s", { none_value: null })]);
    const d = findings.filter((f) => f.code === "minja/renders-differently");
    assert.deepEqual(d.map(slice), ["{{ none_value | upper }}"], "the first difference only");
    assert.match(d[0].message, /the filter 'upper' gives '' in minja, 'NONE' in Jinja2/);
    const e = check("[{{ 7 / 2 }}]", [scenario("s", {})]).findings.find((f) => f.code === "minja/renders-differently");
    assert.match(e!.message, /\{\{ 7 \/ 2 \}\} prints '3' in minja, '3\.5' in Jinja2/);
  });

  it("a text whose whitespace differs: on the text, with that cause (ByteDance-Seed-OSS in minja, where the real minja differs too)", () => {
    const text = readFileSync(corpusDir("templates", "ByteDance-Seed-OSS.jinja"), "utf8");
    const findings = engineFindings(new TemplateDocument(text), [jinja2, minja], BUILTIN_SCENARIOS, { nullToolsProbe: false });
    const d = findings.find((f) => f.code === "minja/renders-differently");
    assert.ok(d, JSON.stringify(findings.map((f) => f.code)));
    assert.match(d.message, /this text renders as .* \(the engines strip whitespace around tags differently\)/);
    assert.doesNotMatch(text.slice(d.start, d.end), /\{[{%]/, "a text node");
    const real = (engine: string) => readFileSync(corpusDir("expected", engine, "ByteDance-Seed-OSS", `${d.scenarios[0]}.out`), "utf8");
    assert.notEqual(real("minja"), real("jinja2"));
  });

  it("reports an engine that throws where Jinja2 renders as an error at the throwing node, once for all the scenarios it happens in", () => {
    const text = "{% for m in messages %}{{ m.content | trim }}{% endfor %}";
    const { findings, slice } = check(text, [
      scenario("typed-a", user([{ type: "text", text: "x" }])),
      scenario("plain", user("x")),
      scenario("typed-b", user([{ type: "text", text: "y" }])),
    ]);
    const errors = findings.filter((f) => f.code === "minja/throws");
    assert.equal(errors.length, 1, JSON.stringify(findings));
    assert.equal(errors[0].severity, "error");
    assert.equal(slice(errors[0]), "m.content | trim");
    assert.deepEqual(errors[0].scenarios, ["typed-a", "typed-b"]);
    assert.match(errors[0].message, /^minja throws here where Jinja2 renders: /);
  });

  it("notes where the reference itself throws, and an engine that renders on there", () => {
    const text = "{% for m in messages %}{{ m.content + '!' }}{% endfor %}";
    const { findings, slice } = check(text, [scenario("typed", user([{ type: "text", text: "x" }])), scenario("plain", user("x"))]);
    const ref = findings.find((f) => f.code === "jinja2/throws");
    assert.ok(ref && ref.severity === "information" && slice(ref) === "m.content + '!'", JSON.stringify(findings));
    assert.deepEqual(ref.scenarios, ["typed"]);
    const renders = findings.filter((f) => f.code === "minja/renders-where-jinja2-throws" || f.code === "minja/throws");
    assert.ok(
      renders.every((f) => f.scenarios.every((s) => s === "typed")),
      "nothing is reported for the scenario both render alike",
    );
  });

  it("a template the reference throws on for every scenario is an error, not a note", () => {
    const { findings } = check("{{ raise_exception('never') }}", [scenario("a", user("x")), scenario("b", user("y"))]);
    const ref = findings.filter((f) => f.code === "jinja2/throws");
    assert.ok(ref.length > 0 && ref.every((f) => f.severity === "error"), JSON.stringify(findings));
    assert.match(ref[0].message, /^Jinja2 throws here on every scenario: /);
  });

  it("a runaway loop stops at the checks' step budget: one note, no engine blamed", () => {
    const { findings } = check("{% for i in range(100000) %}{% for j in range(100000) %}.{% endfor %}{% endfor %}", [
      scenario("plain", user("x")),
    ]);
    assert.deepEqual(
      findings.map((f) => [f.code, f.severity]),
      [["compat/check-limit", "information"]],
    );
    assert.match(findings[0].message, /^The engine checks stop rendering here: step budget of 200000 exceeded/);
  });

  it("reports nothing for a template every engine renders alike", () => {
    const { findings } = check("{% for m in messages %}{{ m.role }}: {{ m.content }}\n{% endfor %}", [scenario("plain", user("x"))]);
    assert.deepEqual(findings, []);
  });
});
