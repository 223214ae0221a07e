// Where Jinja2 accepts `{% break %}` and `{% continue %}`: only in a for loop's body within the same
// compiled function; anywhere else compile() fails. Checked against the installed Python Jinja2.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dialectFor } from "../../../server/src/dialects";
import { TemplateDocument } from "../../../server/src/document";
import { render } from "../../../server/src/interpreter";
import { hasPythonJinja2 } from "../../helpers/python";
import { renderWithPythonJinja2 } from "../../helpers/pythonJinja";

const TEMPLATES = [
  "a{% break %}b",
  "{% continue %}",
  "{% if false %}{% break %}{% endif %}x",
  "{% for x in [] %}{% else %}{% break %}{% endfor %}",
  "{% macro m() %}{% break %}{% endmacro %}{% for x in [1] %}{{ m() }}{% endfor %}",
  "{% macro m() %}{{ caller() }}{% endmacro %}{% for x in [1, 2] %}{% call m() %}{% break %}{% endcall %}{% endfor %}",
  "{% for x in [1, 2] %}{% block b %}{% break %}{% endblock %}{% endfor %}",
  "{% for x in [1, 2] %}{% set y %}a{% break %}{% endset %}{{ x }}{% endfor %}e",
  "{% for x in [1, 2] %}{% filter upper %}a{% continue %}{% endfilter %}{{ x }}{% endfor %}e",
  "{% for x in [1, 2] %}{% with a = 1 %}{% break %}{% endwith %}{% endfor %}e",
  "{% for x in [1] %}{% for y in [] %}{% else %}{% break %}{% endfor %}a{% endfor %}b",
  "{% for x in [[1]] recursive %}{% break %}{% endfor %}e",
  "{% macro m() %}{% for x in [1, 2] %}{{ x }}{% break %}{% endfor %}{% endmacro %}{{ m() }}",
];

describe("jinja2: break and continue outside a loop fail to compile", () => {
  it("as Python Jinja2 compiles them", { skip: hasPythonJinja2() ? false : "python3 with jinja2 is not installed" }, () => {
    const py = renderWithPythonJinja2(TEMPLATES, "{}", [2026, 1, 15, 9, 30, 0]).results;
    TEMPLATES.forEach((t, i) => {
      const real = py[i];
      // compile() adds where it failed in the generated Python: " (<template>, line 12)".
      const expected = "error" in real ? { error: real.error.replace(/ \(<template>, line \d+\)$/, "") } : real;
      // 3.1.2 compiles them the same way.
      for (const engine of ["jinja2", "jinja2-3.1.2"] as const) {
        const r = render(new TemplateDocument(t), {}, { dialect: dialectFor(engine)! });
        assert.deepEqual(r.error ? { error: r.error.message } : { out: r.output }, expected, `${engine}: ${t}`);
      }
    });
  });
});
