import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findDefinition } from "../../../server/src/services/definition";
import { atCursor, textOf } from "../../helpers/cursor";

/** [the word resolved, the defined name, the defining statement] */
function definition(src: string): [string, string, string] | null {
  const { doc, offset } = atCursor(src);
  const d = findDefinition(doc, offset);
  return d && [textOf(doc, d.origin), textOf(doc, d.selectionSpan), textOf(doc, d.span)];
}

describe("go to definition", () => {
  it("goes from a macro call to the macro, even when it is defined further down", () => {
    const src = "{{ ren‸der(1) }}{% macro render(x) %}{{ x }}{% endmacro %}";
    assert.deepEqual(definition(src), ["render", "render", "{% macro render(x) %}{{ x }}{% endmacro %}"]);
  });

  it("goes to the set that is visible at the use, not a later one", () => {
    const src = "{% set x = 1 %}{% set y = 2 %}{{ ‸x }}{% set x = 3 %}";
    assert.deepEqual(definition(src), ["x", "x", "{% set x = 1 %}"]);
    assert.deepEqual(definition("{% set x = 1 %}{% set x = x + 1 %}{{ x‸ }}")!.slice(2), ["{% set x = x + 1 %}"]);
    assert.deepEqual(definition("{% set x %}body{% endset %}{{ x‸ }}")![2], "{% set x %}body{% endset %}");
  });

  it("goes to loop variables, tuple targets and macro parameters", () => {
    const loop = definition("{% for k, v in d.items() %}{{ v‸ }}{% endfor %}")!;
    assert.deepEqual(loop.slice(0, 2), ["v", "v"]);
    assert.match(loop[2], /^\{% for k, v in d\.items\(\) %\}/);
    assert.deepEqual(definition("{% macro m(item) %}{{ it‸em }}{% endmacro %}")!.slice(0, 2), ["item", "item"]);
    assert.deepEqual(definition("{% for m in messages if m‸.role %}{% endfor %}")!.slice(0, 2), ["m", "m"]);
  });

  it("respects loop scope: a set inside a loop is not the definition seen after it", () => {
    const src = "{% set x = 'outer' %}{% for i in r %}{% set x = 'inner' %}{% endfor %}{{ x‸ }}";
    assert.equal(definition(src)![2], "{% set x = 'outer' %}");
  });

  it("goes from ns.attr to the namespace(attr=…) that declares it", () => {
    const src = "{% set ns = namespace(found=false) %}{% for m in messages %}{% set ns.found = true %}{% endfor %}{{ ns.fou‸nd }}";
    assert.deepEqual(definition(src), ["found", "found", "{% set ns = namespace(found=false) %}"]);
    assert.deepEqual(definition("{% set ns = namespace() %}{% set ns.extra = 1 %}{{ ns.ext‸ra }}")![2], "{% set ns.extra = 1 %}");
  });

  it("has no definition for context variables, globals and unknown names", () => {
    assert.equal(definition("{{ messa‸ges }}"), null);
    assert.equal(definition("{{ ran‸ge(3) }}"), null);
    assert.equal(definition("{{ 'te‸xt' }}"), null);
  });
});
