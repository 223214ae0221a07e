import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { errorSource, run } from "./renderHelper";

describe("errors: a cause code, the engine's message and the range of the node that raised it", () => {
  const cases: [string, string, string, string][] = [
    ["{{ foo.bar }}", "runtime/undefined", "UndefinedError: 'foo' is undefined", "foo.bar"],
    ["{{ x.y.z }}", "runtime/undefined", "UndefinedError: 'dict object' has no attribute 'y'", "x.y.z"],
    ["a{{ 'a' + 1 }}", "runtime/type", 'TypeError: can only concatenate str (not "int") to str', "'a' + 1"],
    ["{{ 1 // 0 }}", "runtime/zero-division", "ZeroDivisionError: integer division or modulo by zero", "1 // 0"],
    ["{{ raise_exception('no tools') }}", "runtime/raise-exception", "TemplateError: no tools", "raise_exception('no tools')"],
    [
      "{% if true %}{{ 1 | from_json }}{% endif %}",
      "runtime/unknown-filter",
      "TemplateRuntimeError: No filter named 'from_json' found.",
      "1 | from_json",
    ],
    ["{% if true %}{{ 1 is nope }}{% endif %}", "runtime/unknown-test", "TemplateRuntimeError: No test named 'nope' found.", "1 is nope"],
    [
      "{% set l = [] %}{{ l.append(1) }}",
      "runtime/security",
      "SecurityError: access to attribute 'append' of 'list' object is unsafe.",
      "l.append(1)",
    ],
    [
      "{% include 'other.jinja' %}",
      "runtime/no-loader",
      "TypeError: no loader for this environment specified",
      "{% include 'other.jinja' %}",
    ],
    [
      "{% for a, b in [1] %}{% endfor %}",
      "runtime/type",
      "TypeError: cannot unpack non-iterable int object",
      "{% for a, b in [1] %}{% endfor %}",
    ],
    ["{% set x.y = 1 %}", "runtime/error", "TemplateRuntimeError: cannot assign attribute on non-namespace object", "{% set x.y = 1 %}"],
    ["{{ [].pop() }}", "runtime/security", "SecurityError: access to attribute 'pop' of 'list' object is unsafe.", "[].pop()"],
    ["{{ '{}'.format() }}", "runtime/index", "IndexError: tuple index out of range", "'{}'.format()"],
    ["{{ 'abc'.index('z') }}", "runtime/value", "ValueError: substring not found", "'abc'.index('z')"],
  ];
  for (const [template, code, message, at] of cases) {
    it(`${template} → ${code}`, () => {
      const r = run(template, '{"x": {}}');
      assert.equal(r.error?.code, code, r.error?.message);
      assert.equal(r.error?.message, message);
      assert.equal(errorSource(r), at);
    });
  }

  it("keeps the output produced before a runtime error (Python would throw it away)", () => {
    const r = run("before {{ missing.x }} after");
    assert.equal(r.output, "before ");
    assert.equal(r.error?.code, "runtime/undefined");
  });

  it("an unknown filter outside any if fails the whole render at compile time, as in Jinja2", () => {
    const r = run("before {{ 1 | from_json }}");
    assert.equal(r.output, "");
    assert.equal(r.error?.code, "runtime/unknown-filter");
    assert.equal(r.error?.message, "TemplateAssertionError: No filter named 'from_json'.");
    assert.equal(errorSource(r), "1 | from_json");
  });

  it("an unknown filter inside a loop body is compile-time too, even when the loop is inside an if", () => {
    assert.equal(
      run("{% if x %}{% for i in [] %}{{ i | nope }}{% endfor %}{% endif %}").error?.message,
      "TemplateAssertionError: No filter named 'nope'.",
    );
    assert.equal(run("{{ 1 | nope if false }}ok").output, "ok");
  });

  it("a syntax error fails the render before anything runs, with its syntax/ code", () => {
    const r = run("x {% if %}");
    assert.equal(r.output, "");
    assert.match(r.error!.code, /^syntax\//);
    assert.equal(r.error?.nodeId, -1);
    assert.match(r.error!.message, /^TemplateSyntaxError: /);
  });

  it("an error inside a macro points into the macro body", () => {
    const r = run("{% macro f(m) %}\n  {{ m.content + 1 }}\n{% endmacro %}{{ f({'content': 'x'}) }}");
    assert.equal(errorSource(r), "m.content + 1");
    assert.equal(r.doc.lines.positionAt(r.error!.start).line, 1);
  });
});
