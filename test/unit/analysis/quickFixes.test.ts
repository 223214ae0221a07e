import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { engineFindings } from "../../../server/src/analysis/engineChecks";
import { fixAll, quickFixesFor } from "../../../server/src/analysis/fixes/quickFixes";
import { applyEdits } from "../../../server/src/analysis/fixes/rewrites";
import { BUILTIN_SCENARIOS } from "../../../server/src/analysis/scenarios";
import { fromJS } from "../../../server/src/interpreter/json";
import type { PyDict } from "../../../server/src/interpreter/dict";
import type { Scenario } from "../../../server/src/analysis/scenario";
import type { Dialect } from "../../../server/src/interpreter/dialect";
import { dialectFor } from "../../../server/src/dialects/index";
import { TemplateDocument } from "../../../server/src/document/document";
import { render } from "../../../server/src/interpreter/render";
import { renderRealLlamaCpp } from "../../helpers/realLlamaCpp";

const jinja2 = dialectFor("jinja2")!;
const minja = dialectFor("minja")!;
const llamacpp = dialectFor("llamacpp")!;
const data = {
  name: "World",
  xs: [1, 2, 3],
  tools: [{ type: "function", function: { name: "f", description: "é" } }],
  messages: [{ role: "user", content: "hi" }],
};
const scenarios: Scenario[] = [{ name: "sample", data: fromJS(data) as PyDict }, ...BUILTIN_SCENARIOS];

/** The texts the verified fixes for the engine's findings leave (several findings may share a fix). */
function fixed(text: string, engine: Dialect): string[] {
  const doc = new TemplateDocument(text);
  const texts = engineFindings(doc, [engine], scenarios, { nullToolsProbe: true }).flatMap((f) =>
    quickFixesFor(doc, f, scenarios).map((q) => applyEdits(text, q.edits)),
  );
  return [...new Set(texts)];
}

const jinja2Out = (text: string) => render(new TemplateDocument(text), data, { dialect: jinja2 }).output;

const CASES: [string, Dialect, string, string][] = [
  ["x.0 → x[0] (minja)", minja, "{{ messages.0.content }}", "{{ messages[0].content }}"],
  [
    "x is undefined → x is not defined (minja)",
    minja,
    "{% if nothing is undefined %}none{% endif %}",
    "{% if nothing is not defined %}none{% endif %}",
  ],
  ["tojson(ensure_ascii=False) → tojson (minja)", minja, "{{ tools | tojson(ensure_ascii=False) }}", "{{ tools | tojson }}"],
  [
    "tojson(indent=2, ensure_ascii=False) → tojson(indent=2) (minja)",
    minja,
    "{{ tools | tojson(indent=2, ensure_ascii=False) }}",
    "{{ tools | tojson(indent=2) }}",
  ],
  [
    "f(x).y → (f(x)).y (minja)",
    minja,
    "{% macro f(x) %} {{ x }} {% endmacro %}[{{ f(name).strip() }}]",
    "{% macro f(x) %} {{ x }} {% endmacro %}[{{ (f(name)).strip() }}]",
  ],
  ["a // b → (a / b) | int (llama.cpp)", llamacpp, "{{ xs | length // 2 }}", "{{ ((xs | length) / 2) | int }}"],
  ["a ** 2 → (a * a) (llama.cpp)", llamacpp, "{{ xs[2] ** 2 }}", "{{ (xs[2] * xs[2]) }}"],
  ["'%s' % x → ~ (llama.cpp)", llamacpp, "{{ 'Hello %s, 100%%!' % name }}", "{{ ('Hello ' ~ name ~ ', 100%!') }}"],
  ["'%s %s' % (a, b) → ~ (llama.cpp)", llamacpp, "{{ '%s-%s' % (name, xs | length) }}", "{{ (name ~ '-' ~ (xs | length)) }}"],
  [
    "loop.cycle → a list indexed by loop.index0 (llama.cpp)",
    llamacpp,
    "{% for x in xs %}{{ loop.cycle('odd', 'even') }}{% endfor %}",
    "{% for x in xs %}{{ ['odd', 'even'][loop.index0 % 2] }}{% endfor %}",
  ],
  ["raw → a string literal (llama.cpp)", llamacpp, "a\n  {% raw %}{{ x }}\n{% endraw %}\nb", "a\n{{ '{{ x }}\\n' }}b"],
  [
    "a member test on a null tool → skip null items (llama.cpp, older probe)",
    llamacpp,
    "{% for tool in tools %}{% if 'function' in tool %}{{ tool.function.name }}{% endif %}{% endfor %}",
    "{% for tool in tools if tool %}{% if 'function' in tool %}{{ tool.function.name }}{% endif %}{% endfor %}",
  ],
];

describe("quick fixes: offered only when Jinja2 renders the rewrite byte for byte as the original", () => {
  for (const [what, engine, before, after] of CASES) {
    it(what, () => {
      assert.deepEqual(fixed(before, engine), [after]);
      assert.equal(jinja2Out(after), jinja2Out(before));
      if (engine === llamacpp) {
        assert.deepEqual(
          renderRealLlamaCpp(after, data),
          { out: jinja2Out(before) },
          "the real llama.cpp renders the fix as Jinja2 renders the original",
        );
      }
    });
  }

  it("not offered where the rewrite would change what Jinja2 renders (-7 // 2 is -4, int(-3.5) is -3)", () => {
    const text = "{{ -7 // 2 }}";
    const doc = new TemplateDocument(text);
    const findings = engineFindings(doc, [llamacpp], scenarios, { nullToolsProbe: true });
    assert.ok(findings.some((f) => f.code === "llamacpp/unsupported-syntax"));
    assert.deepEqual(fixed(text, llamacpp), []);
  });

  it("fix all: every safe fix, round after round, leaving no error for the engines", () => {
    const text = "{{ messages.0.content }}{% for x in xs %}{{ loop.cycle('a', 'b') }}{{ x ** 2 }}{% endfor %}";
    const { text: out, applied } = fixAll(new TemplateDocument(text), [minja, llamacpp], scenarios, { nullToolsProbe: true });
    assert.equal(out, "{{ messages[0].content }}{% for x in xs %}{{ ['a', 'b'][loop.index0 % 2] }}{{ (x * x) }}{% endfor %}");
    assert.equal(applied.length, 3);
    const after = engineFindings(new TemplateDocument(out), [minja, llamacpp], scenarios, { nullToolsProbe: true });
    assert.deepEqual(
      after.filter((f) => f.severity === "error"),
      [],
    );
  });
});
