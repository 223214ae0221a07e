import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { llamacppSyntaxRule } from "../../../../server/src/dialects/llamacpp/syntaxRules";
import type { Refusal } from "../../../../server/src/interpreter/dialect";
import { TemplateDocument } from "../../../../server/src/document/document";
import { walk } from "../../../../server/src/parser/walk";
import { llamaCppErrorCause, renderRealLlamaCpp } from "../../../helpers/realLlamaCpp";

function rules(source: string): Refusal[] {
  const doc = new TemplateDocument(source);
  assert.deepEqual(
    doc.problems.filter((p) => p.severity === "error"),
    [],
    "valid Jinja2",
  );
  const out: Refusal[] = [];
  walk(doc.template, (n, ancestors) => {
    const r = llamacppSyntaxRule(n, ancestors, source);
    if (r) out.push(r);
  });
  return out;
}

const REFUSED = [
  "{{ 2**3 }}",
  "{{ 7 // 2 }}",
  "{% raw %}x{% endraw %}",
  "{% for x in y recursive %}{% endfor %}",
  "{% filter upper|lower %}a{% endfilter %}",
  "{{ x is divisibleby 3 }}",
  "{% if x is divisibleby 3 %}{% endif %}",
  "{{ x is sameas 'a' }}",
  "{{ '\\x41' }}",
  "{{ '\\d' }}",
  "{{ 0x1F }}",
  "{{ 1_000 }}",
  "{{ 1e3 }}",
  "{{ 1.5e3 }}",
  "{% set a = 0b11 %}",
  "{{ 99999999999999999999 }}",
  "{{ 9223372036854775808 }}",
  "{{ 1, 2 }}",
  "{% for x in 1, 2 %}{% endfor %}",
  "{{ (1,) }}",
  "{{ () }}",
  "{{ (1, 2,) }}",
  "{{ x[1, 2] }}",
  "{{ {} + 1 }}",
  "{{ {} - 1 }}",
  "{%+ if true %}{% endif %}",
  "{% if true +%}{% endif %}",
  "{% if true %}{% endif +%}",
  "{% if true %}{%+ endif %}",
  "{% with a = 1 %}{% endwith %}",
  "{% block b %}{% endblock %}",
  "{{ f(**k) }}",
  "{{ f(*k) }}",
  "{% call x.y() %}{% endcall %}",
  "{% call x['a']() %}{% endcall %}",
  "{{ é }}",
  "{% set x | upper %}a{% endset %}",
  "{{ x|a.b }}",
  "{% include 'x' %}",
  "{% import 'x' as y %}",
  "{% extends 'x' %}",
];
const ACCEPTED = [
  "{{ 'a\\'b' }}",
  "{{ -9223372036854775808 }}",
  "{% set x = 1, 2 %}{{ x }}",
  "{{ (1, 2) }}",
  "{{ {'a':1} ~ 'x' }}",
  "{{ x.0 }}",
  "{{ x is divisibleby(3) }}",
];

describe("llamacpp syntax rules (per construct, for diagnostics)", () => {
  for (const t of REFUSED) {
    it(`${t}: the engine's first error`, () => {
      const real = renderRealLlamaCpp(t, {});
      assert.ok("error" in real, "llama.cpp refuses it");
      const first = rules(t)[0];
      assert.ok(first, "a rule fires");
      const compile = real.error.startsWith("failed to compile template: ");
      assert.equal(first.when, compile ? "parse" : "render");
      assert.equal(first.message, llamaCppErrorCause(real.error));
    });
  }
  for (const t of ACCEPTED) {
    it(`${t}: no rule`, () => {
      const real = renderRealLlamaCpp(t, {});
      assert.ok(!("error" in real) || !real.error.startsWith("failed to compile"), "llama.cpp compiles it");
      assert.deepEqual(
        rules(t).filter((r) => r.when === "parse"),
        [],
      );
    });
  }
});
