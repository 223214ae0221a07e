// What Jinja2 refuses when it compiles a template (nothing renders), and the macro `caller`
// parameter with a default; checked against Python Jinja2 3.1.6.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dialectFor } from "../../../server/src/dialects";
import { TemplateDocument } from "../../../server/src/document";
import { render } from "../../../server/src/interpreter";

const out = (template: string, engine: Parameters<typeof dialectFor>[0] = "jinja2") => {
  const r = render(new TemplateDocument(template), {}, { dialect: dialectFor(engine)! });
  return r.error ? r.error.message : r.output;
};

describe("Jinja2's compile-time refusals", () => {
  it("a for loop that stores `loop`: as its target, in a tuple, or set anywhere inside", () => {
    const msg = "TemplateAssertionError: Can't assign to special loop variable in for-loop target";
    assert.equal(out("{% for loop in [1] %}{% endfor %}"), msg);
    assert.equal(out("{% for a, loop in [] %}{% endfor %}"), msg);
    assert.equal(out("a{% for x in [1] %}{% set loop = 2 %}{{ loop }}{% endfor %}"), msg);
    assert.equal(out("{% set loop = 2 %}{{ loop }}"), "2");
    assert.equal(out("{% for loop in [1] %}{% endfor %}", "jinja2-3.1.2"), msg);
  });

  it("a macro that uses `caller` and declares it without a default", () => {
    const msg =
      'TemplateAssertionError: When defining macros or call blocks the special "caller" argument must be omitted or be given a default.';
    assert.equal(out("{% macro x(caller) %}{{ caller() }}{% endmacro %}"), msg);
    assert.equal(out("{% macro x(caller) %}no use{% endmacro %}{{ x(1) }}"), "no use");
  });

  it("an endblock naming another block", () => {
    assert.equal(out("{% block x %}{% endblock y %}"), "TemplateSyntaxError: expected token 'end of statement block', got 'y'");
    assert.equal(out("{% block x %}b{% endblock x %}"), "b");
  });
});

describe("a macro whose `caller` parameter has a default", () => {
  it("gets the call block's caller, and the default when called plainly", () => {
    assert.equal(
      out("{% macro x(caller=none) %}[{% if caller %}{{ caller() }}{% endif %}]{% endmacro %}{{ x() }}{% call x() %}aha!{% endcall %}"),
      "[][aha!]",
    );
    assert.equal(
      out("{% macro x(a, caller=none) %}{{ a }}[{{ caller() if caller else '-' }}]{% endmacro %}{% call x(1) %}c{% endcall %}{{ x(2) }}"),
      "1[c]2[-]",
    );
  });
});
