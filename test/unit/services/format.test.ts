// The formatter (issue 32): the canonical layout, and what its two proofs leave out.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TemplateDocument } from "../../../server/src/document";
import { formatTemplate, MAX_FORMAT_LENGTH, TEXT_REASON, type FormatOptions } from "../../../server/src/services/format";
import { leftAloneHover } from "../../../server/src/services/formatHover";

const format = (text: string, options: Partial<FormatOptions> = {}) =>
  formatTemplate(new TemplateDocument(text), { indentWidth: 2, ...options });
const formatted = (text: string, options: Partial<FormatOptions> = {}) => format(text, options).text;

describe("formatter: spacing inside tags", () => {
  it("one space inside the delimiters, signs kept", () => {
    assert.equal(formatted("{{x}}{{-  y  -}}"), "{{ x }}{{- y -}}");
    assert.equal(formatted("{%if x%}a{%endif%}"), "{% if x %}a{% endif %}");
  });

  it("spaces around binary operators and a top-level `=`, none after a sign or around `.`, `|`, a keyword argument's `=`", () => {
    assert.equal(formatted("{% set a=b.c|default( 1 )+-2*x %}"), "{% set a = b.c|default(1) + -2 * x %}");
    assert.equal(formatted("{{ f(a = 1, *args) }}"), "{{ f(a=1, *args) }}");
    assert.equal(formatted("{{ x  |  tojson }}"), "{{ x|tojson }}");
    assert.equal(formatted("{{ 'a' if x else'b' }}"), "{{ 'a' if x else 'b' }}");
    assert.equal(formatted("{{ not(x) and -y }}"), "{{ not (x) and -y }}");
  });

  it("slices without spaces, dicts and lists with one after `,` and `:`, calls and subscripts tight", () => {
    assert.equal(formatted("{{ x[1 :] }}{{ x[ : : -1] }}"), "{{ x[1:] }}{{ x[::-1] }}");
    assert.equal(formatted("{{ {'a':1,'b' :[1,2]} }}"), "{{ {'a': 1, 'b': [1, 2]} }}");
    assert.equal(formatted("{{ messages [0] . role }}{{ x in [1] }}"), "{{ messages[0].role }}{{ x in [1] }}");
  });

  it("string quotes, adjacent literals and number spellings are kept", () => {
    assert.equal(formatted(`{{"a"  'b'}}{{ 1e3+1_000 }}`), `{{ "a" 'b' }}{{ 1e3 + 1_000 }}`);
  });

  it("a tag written over several lines keeps its line breaks, indented by open brackets (one level past the tag outside them)", () => {
    assert.equal(formatted("{%- set x = {\n'a': 1,\n      'b': [\n2]\n} %}"), "{%- set x = {\n  'a': 1,\n  'b': [\n    2]\n} %}");
    assert.equal(
      formatted("{% if true %}\n{%- if a and\nb\n-%}{% endif %}{% endif %}"),
      "{% if true %}\n  {%- if a and\n    b\n  -%}\n  {% endif %}\n{% endif %}",
    );
  });
});

describe("formatter: lines", () => {
  it("indents statements by block depth (elif and else at their block's), where lstrip_blocks drops the indentation", () => {
    const text =
      "{% for m in messages %}\n{% if m.role == 'user' %}\n{{- m.content }}\n{% elif x %}\n{% else %}\n      {% set y = 1 %}\n{% endif %}\n{% endfor %}";
    assert.equal(
      formatted(text),
      "{% for m in messages %}\n  {% if m.role == 'user' %}\n    {{- m.content }}\n  {% elif x %}\n  {% else %}\n    {% set y = 1 %}\n  {% endif %}\n{% endfor %}",
    );
    assert.equal(formatted(text, { indentWidth: 4 }).split("\n")[2], "        {{- m.content }}");
    assert.equal(formatted(text, { useTabs: true }).split("\n")[2], "\t\t{{- m.content }}");
  });

  it("puts a statement beside another tag on a line of its own where trim_blocks and lstrip_blocks make that harmless", () => {
    assert.equal(
      formatted("{% if messages %}{% set x = 1 %}{% endif %}{{ x }}"),
      "{% if messages %}\n  {% set x = 1 %}\n{% endif %}\n{{ x }}",
    );
  });

  it("leaves template text as it is, with the reason: its indentation is output", () => {
    const text = "{% if messages %}\nYou are helpful.\n{% endif %}";
    const r = format(text);
    assert.equal(r.text, text);
    assert.deepEqual(r.leftAlone, [{ start: 18, end: 18, reason: TEXT_REASON }]);
  });

  it("a hover on a line it left as it is says why; other lines have none", () => {
    const text = "{% if messages %}\nYou are helpful.\n{% endif %}";
    const doc = new TemplateDocument(text);
    const { leftAlone } = format(text);
    const h = leftAloneHover(doc, leftAlone, 22)!;
    assert.match(
      h.contents,
      /^\*\*Format\*\* left this line's layout as it is, because formatting would change the output:\n\n- this whitespace is template text/,
    );
    assert.deepEqual(h.span, { start: 18, end: 34 });
    assert.equal(leftAloneHover(doc, leftAlone, 3), null);
  });

  it("leaves out a split that `+%}` or `}}` keeps in the output, and keeps the rest", () => {
    assert.equal(formatted("{% if x +%}{% set y = 1 %}{% endif %}"), "{% if x +%}{% set y = 1 %}\n{% endif %}");
    assert.equal(formatted("{% for m in messages %}{{ m.role }}{% endfor %}"), "{% for m in messages %}{{ m.role }}{% endfor %}");
  });

  it("leaves out what Jinja2 would trim but another engine would not, naming the engine and scenario", () => {
    // minja trims one "\n" after a statement, not "\r\n" (Jinja2 normalizes newlines first).
    const r = format("{% if messages %}{% set x = 1 %}{% endif %}\r\n{{ x }}");
    assert.equal(r.text, "{% if messages %}{% set x = 1 %}{% endif %}\r\n{{ x }}");
    assert.equal(r.leftAlone.length, 2);
    assert.match(r.leftAlone[0].reason, /^left as it is: minja would render differently in scenario 'basic'$/);
  });

  it("stops halving a batch that keeps failing when its budget of proofs is spent, and says so", () => {
    const r = format("{% if messages %}" + "{% set x = 1 %}".repeat(40) + "{% endif %}\r\n");
    assert.ok(r.leftAlone.some((l) => /ran out of its budget/.test(l.reason)));
  });
});

describe("formatter: contract", () => {
  const samples = [
    "{%- for message in messages %}{%- if message.role == 'system' %}{{- message.content|trim }}{%- endif %}{%- endfor %}",
    "{% if messages %}{% set x = 1 %}{% endif %}\r\n{{ x }}",
    "{%if x%}\n  text\n    {%-set y=1-%}\n{%endif%}",
  ];

  it("is idempotent", () => {
    for (const s of samples) {
      const once = formatted(s);
      assert.equal(formatted(once), once, JSON.stringify(s));
    }
  });

  it("returns a template that does not parse unchanged, with the reason", () => {
    const r = format("{% if x %}{{ y");
    assert.equal(r.text, "{% if x %}{{ y");
    assert.deepEqual(r.edits, []);
    assert.match(r.refused!, /^not formatted: the template does not parse \(1:\d+: /);
  });

  it("leaves a template past the size it can prove unchanged", () => {
    const r = format("{{x}}" + " ".repeat(MAX_FORMAT_LENGTH));
    assert.match(r.refused!, /too large/);
    assert.equal(r.edits.length, 0);
  });

  it("Format Selection changes only the lines in the range; the edits turn the text into the result", () => {
    const text = "{%if a%}{{a}}{%endif%}\n{%if b%}{{b}}{%endif%}";
    const r = format(text, { range: { start: 23, end: text.length } });
    assert.equal(r.text, "{%if a%}{{a}}{%endif%}\n{% if b %}{{ b }}{% endif %}");
    let out = text;
    for (const e of [...r.edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
    assert.equal(out, r.text);
  });
});
