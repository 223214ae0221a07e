// How a template consumes a value, read off the expressions around it: the static rules sample a
// feature only the way the template uses it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { usesOf, type Use } from "../../../server/src/analysis/valueUses";
import { TemplateDocument } from "../../../server/src/document/document";
import { walk } from "../../../server/src/parser/walk";
import type * as A from "../../../server/src/parser/ast";

/** The uses of the first `loop.x` expression of the template. */
function uses(template: string): Use[] {
  const doc = new TemplateDocument(`{% for x in xs %}${template}{% endfor %}`);
  let found: Use[] | null = null;
  walk(doc.template, (n, ancestors) => {
    if (found === null && n.kind === "GetAttr" && n.object.kind === "Name" && n.object.name === "loop")
      found = usesOf(n as A.Expr, ancestors, doc.text);
  });
  assert.ok(found, template);
  return found;
}

test("printed: the sample converts the value as the template does", () => {
  assert.deepEqual(uses("{{ loop.last }}"), [{ kind: "text", sample: "{{ loop.last }}" }]);
  assert.deepEqual(uses("{{ 'a' ~ loop.index }}"), [{ kind: "text", sample: "{{ '' ~ loop.index }}" }]);
  assert.deepEqual(uses("{{ '%d. ' % loop.index }}"), [{ kind: "text", sample: "{{ '%d. ' % loop.index }}" }]);
  assert.deepEqual(uses("{{ loop.index | string | upper }}"), [{ kind: "text", sample: "{{ loop.index | string }}" }]);
});

test("tested for truth: if, not, a conditional's test, and/or's left operand (which also passes it on)", () => {
  assert.deepEqual(uses("{% if loop.first %}{% endif %}"), [{ kind: "truth", expr: "loop.first" }]);
  assert.deepEqual(uses("{{ 'a' if not loop.first }}"), [{ kind: "truth", expr: "loop.first" }]);
  assert.deepEqual(uses("{{ 'a' if loop.first else 'b' }}"), [{ kind: "truth", expr: "loop.first" }]);
  assert.deepEqual(uses("{{ loop.first or 'b' }}"), [
    { kind: "truth", expr: "loop.first" },
    { kind: "text", sample: "{{ loop.first }}" },
  ]);
});

test("consumed as a value: compared, tested, computed with, a callee", () => {
  for (const t of [
    "{% if loop.index0 == 0 %}{% endif %}",
    "{% if loop.index is divisibleby(2) %}{% endif %}",
    "{{ loop.index0 + 1 }}",
    "{{ loop.length | abs }}",
  ]) {
    assert.equal(uses(t)[0].kind, "value", t);
  }
  assert.deepEqual(uses("{{ loop.cycle('a', 'b') }}"), [{ kind: "value", expr: "loop.cycle" }]);
});

test("a value flows through members with literal keys, default and the branches of a conditional", () => {
  assert.deepEqual(uses("{{ loop.previtem['a'] }}"), [{ kind: "text", sample: "{{ loop.previtem['a'] }}" }]);
  assert.deepEqual(uses("{{ loop.previtem.name }}"), [{ kind: "text", sample: "{{ loop.previtem.name }}" }]);
  assert.deepEqual(uses("{{ loop.previtem | default('x') }}"), [{ kind: "text", sample: "{{ (loop.previtem | default('x')) }}" }]);
  assert.deepEqual(uses("{{ 'a' if x else loop.index }}"), [{ kind: "text", sample: "{{ loop.index }}" }]);
});

test("escapes: bound to a name, passed to a call or a filter with other arguments, iterated", () => {
  assert.deepEqual(uses("{% set i = loop.index %}"), [{ kind: "escapes", expr: "loop.index" }]);
  assert.deepEqual(uses("{{ f(loop.index) }}"), [{ kind: "escapes", expr: "loop.index" }]);
  assert.deepEqual(uses("{{ loop.index | join(sep) }}"), [{ kind: "escapes", expr: "loop.index" }]);
  assert.deepEqual(uses("{% for y in loop.previtem %}{% endfor %}"), [{ kind: "escapes", expr: "loop.previtem" }]);
});
