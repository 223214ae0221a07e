// Jinja2's `{% autoescape %}` scope and Markup's escaping str.format, checked against Python
// Jinja2 3.1.6 (ImmutableSandboxedEnvironment, trim_blocks, lstrip_blocks).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dialectFor } from "../../../server/src/dialects";
import { TemplateDocument } from "../../../server/src/document";
import { render } from "../../../server/src/interpreter";
import { TAGS } from "../../../server/src/languageFacts";
import { run } from "./renderHelper";

const out = (template: string, ctx = "{}") => {
  const r = run(template, ctx);
  return r.error ? r.error.message : r.output;
};

describe("{% autoescape %}", () => {
  it("escapes printed values inside the block only; Markup, numbers and None print as they are", () => {
    assert.equal(
      out(`{% autoescape true %}{{ "<a>" }}{{ "<b>"|safe }}{{ 1 }}{{ none }}{% endautoescape %}{{ "<c>" }}`),
      "&lt;a&gt;<b>1None<c>",
    );
    assert.equal(out(`{% autoescape false %}{{ "<a>" }}{% endautoescape %}`), "<a>");
  });

  it("is a scope: what it sets stays inside", () => {
    assert.equal(out(`{% autoescape true %}{% set x = "<x>" %}{{ x }}{% endautoescape %}{{ x }}{{ "<y>" }}`, '{"x": 1}'), "&lt;x&gt;1<y>");
  });

  it("a macro called inside returns Markup; its body prints as where it was defined", () => {
    assert.equal(out(`{% macro m() %}<html>{% endmacro %}{% autoescape true %}{{ m() }}{% endautoescape %}`), "<html>");
    assert.equal(out(`{% macro m(x) %}{{ x }}{% endmacro %}{% autoescape true %}{{ m("<") }}{% endautoescape %}{{ m("<") }}`), "<<");
  });

  it("join escapes around a Markup item and returns Markup; xmlattr, urlize and a set block return Markup (as python3's jinja2)", () => {
    const inside = (body: string) => out(`{% autoescape true %}${body}{% endautoescape %}`);
    assert.equal(inside(`{{ ['<a>'|safe, '&'] | join('<br>') }}`), "<a>&lt;br&gt;&amp;");
    assert.equal(inside(`{{ ['<a>', '&'] | join(',') }}`), "&lt;a&gt;,&amp;");
    assert.equal(inside(`{{ {'a': 1} | xmlattr }}`), ' a="1"');
    assert.equal(inside(`{{ '<a>' | urlize }}`), "&lt;a&gt;");
    assert.equal(inside(`{% set x %}<b>{{ '<i>' }}{% endset %}{{ x }}`), "<b>&lt;i&gt;");
    // outside autoescape they are plain strings
    assert.equal(out(`{% set x %}<b>{% endset %}{{ x is escaped }}{{ {'a': 1} | xmlattr is escaped }}`), "FalseFalse");
  });

  it("a flag Jinja2 cannot fold leaves constant outputs unescaped", () => {
    assert.equal(out(`{% set on = 1 %}{% set s = "<a>" %}{% autoescape on %}{{ s }}{{ "<b>" }}{% endautoescape %}`), "&lt;a&gt;<b>");
    assert.equal(out(`{% set s = "<a>" %}{% autoescape 1 == 1 %}{{ s }}{{ "<b>" }}{% endautoescape %}`), "&lt;a&gt;&lt;b&gt;");
    assert.equal(out(`{% set s = "<a>" %}{% autoescape "" %}{{ s }}{% endautoescape %}`), "<a>");
  });

  it("completion and hover know the tag and its end tag", () => {
    assert.ok(TAGS.some((t) => t.name === "autoescape" && t.end === "endautoescape"));
  });

  it("engines without the tag refuse it", () => {
    const doc = new TemplateDocument("{% autoescape true %}x{% endautoescape %}");
    for (const engine of ["llamacpp", "minja", "hfjinja"] as const) {
      assert.equal(render(doc, {}, { dialect: dialectFor(engine)! }).error?.code.startsWith("syntax/"), true, engine);
    }
  });
});

describe("str.format on Markup escapes what it inserts (markupsafe's EscapeFormatter)", () => {
  it("escapes each field unless the value is Markup, after conversion and spec", () => {
    assert.equal(
      out(`{{ ("<p>{}</p>{x!r}"|safe).format("<b>", x="'") }}|{{ ("{:>5}"|safe).format("<") }}|{{ ("{0}"|safe).format("<i>"|safe) }}`),
      "<p>&lt;b&gt;</p>&#34;&#39;&#34;|    &lt;|<i>",
    );
    assert.equal(out(`{{ ("a{x.foo}b{y}"|safe).format_map({"x": {"foo": 42}, "y": "<foo>"}) }}`), "a42b&lt;foo&gt;");
    assert.equal(out(`{{ "{}".format("<b>") }}`), "<b>");
  });

  it("refuses a format spec on a Markup value", () => {
    assert.equal(out(`{{ ("{0:>3}"|safe).format("<i>"|safe) }}`), "ValueError: Unsupported format specification for Markup.");
  });
});
