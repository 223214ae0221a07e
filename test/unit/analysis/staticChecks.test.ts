import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { engineFindings } from "../../../server/src/analysis";
import { staticFindings } from "../../../server/src/analysis/staticChecks";
import { dialectFor } from "../../../server/src/dialects/index";
import { TemplateDocument } from "../../../server/src/document/document";

const jinja2 = dialectFor("jinja2")!;
const minja = dialectFor("minja")!;
const hfjinja = dialectFor("hfjinja")!;

function findings(text: string, engine = minja) {
  const doc = new TemplateDocument(text);
  return staticFindings(doc, jinja2, engine).map((f) => ({ ...f, text: text.slice(f.start, f.end) }));
}

describe("static engine rules, read from the dialect", () => {
  it("minja refuses to compile x.0: an error on exactly that attribute access", () => {
    const f = findings("{{ messages.0.content }}");
    assert.equal(f.length, 1, JSON.stringify(f));
    assert.equal(f[0].code, "minja/unsupported-syntax");
    assert.equal(f[0].text, "messages.0");
    assert.equal(f[0].engine, "minja");
    assert.match(f[0].message, /^minja cannot compile this \(Expected identifier in subscript/);
  });

  it("a test the engine has no table entry for", () => {
    const f = findings("{% if x is undefined %}{% endif %}");
    assert.deepEqual(
      f.map((x) => [x.code, x.text]),
      [["minja/unknown-test", "undefined"]],
    );
  });

  it("a missing filter, test or global is worded by the engine's facts", () => {
    const [filter] = findings("{{ x | attr('a') }}");
    assert.equal(filter.code, "minja/unknown-filter");
    assert.match(filter.message, /^minja has no filter 'attr': minja has no 'attr' filter \(filters are context functions there/);
    const [test] = findings("{% if x is callable %}{% endif %}");
    assert.match(test.message, /^minja has no test 'callable': minja knows 12 tests, not 'callable'/);
    const [global] = findings("{{ dict(a=1) }}", dialectFor("llamacpp")!);
    assert.equal(global.code, "llamacpp/unknown-global");
    assert.match(global.message, /it is undefined there, so this call throws \(llama\.cpp has no dict\(\)\)$/);
  });

  it("a filter that exists but throws on every input shape the reference takes, with the template's own arguments", () => {
    const f = findings("{{ tools | tojson(ensure_ascii=False) }}{{ tools | tojson(indent=2) }}");
    assert.deepEqual(
      f.map((x) => [x.code, x.text]),
      [["minja/throws", "tojson"]],
      "only the call with the argument minja does not take",
    );
    assert.match(f[0].message, /Unknown argument ensure_ascii/);
  });

  it("a loop attribute is judged the way the template consumes it: printed, tested or compared", () => {
    // @huggingface/jinja prints booleans as 'true'/'false': only printing them differs.
    const printed = findings("{% for m in xs %}{{ loop.last }}{{ loop.first ~ '' }}{% endfor %}", hfjinja);
    assert.deepEqual(
      printed.map((x) => [x.code, x.text]),
      [
        ["hfjinja/renders-differently", "loop.last"],
        ["hfjinja/renders-differently", "loop.first"],
      ],
    );
    assert.match(printed[0].message, /\{\{ loop\.last \}\}.* gives 'false,false,true,' there, 'False,False,True,' in Jinja2/);
    const tested =
      "{% for m in xs %}{% if loop.last %}a{% endif %}{{ 'b' if not loop.first }}{% if loop.index0 == 0 or loop.length > 1 %}c{% endif %}{% endfor %}";
    assert.deepEqual(findings(tested, hfjinja), []);
    // An attribute the engine lacks is found through any use.
    assert.deepEqual(
      findings("{% for m in xs %}{% if loop.depth == 1 %}a{% endif %}{% endfor %}", minja).map((x) => [x.code, x.text]),
      [["minja/renders-differently", "loop.depth"]],
    );
  });

  it("nothing for the reference itself beyond its own compile-time refusals", () => {
    assert.deepEqual(findings("{{ messages.0.content }}{% if x is undefined %}{% endif %}", jinja2), []);
    assert.deepEqual(
      findings("{{ x | no_such_filter }}", jinja2).map((x) => x.code),
      ["jinja2/unsupported-syntax"],
    );
  });
});

describe("an engine's missing test that only inputs Jinja2 raises on reach", () => {
  const QWEN =
    "{%- macro render_content(content) %}{%- if content is string %}{{- content }}{%- elif content is iterable %}{%- for item in content %}{{- item.text }}{%- endfor %}" +
    "{%- elif content is none or content is undefined %}{{- '' }}{%- else %}{{- raise_exception('Unexpected content type.') }}{%- endif %}{%- endmacro %}" +
    "{%- for m in messages %}{{- render_content(m.content) }}{%- endfor %}";
  const minjaFindings = (text: string) =>
    engineFindings(new TemplateDocument(text), [jinja2, minja], [], { nullToolsProbe: false }).filter(
      (f) => f.code === "minja/unknown-test",
    );

  it("is information, saying Jinja2 raises there too (Qwen's `content is none or content is undefined`)", () => {
    const [f] = minjaFindings(QWEN);
    assert.equal(f.severity, "information");
    assert.match(
      f.message,
      /only inputs on which Jinja2 raises too reach it \(TemplateError: Unexpected content type\.\), so it changes no outcome$/,
    );
  });

  it("stays an error where some input reaches it that Jinja2 renders", () => {
    const [f] = minjaFindings(QWEN.replace("{{- raise_exception('Unexpected content type.') }}", "{{- content | string }}"));
    assert.equal(f.severity, "error");
  });
});
