import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { CAPS_KEYS, probeCaps } from "../../../server/src/analysis/caps/capsProbe";
import { probeFindings } from "../../../server/src/analysis/caps/probeFindings";
import { dialectFor } from "../../../server/src/dialects/index";
import { TemplateDocument } from "../../../server/src/document/document";
import { corpusDir } from "../../helpers/corpus";

const llamacpp = dialectFor("llamacpp")!;
const expected = JSON.parse(readFileSync(corpusDir("expected", "llamacpp-caps.json"), "utf8")) as Record<string, Record<string, boolean>>;

describe("llama.cpp's capability probe on the llamacpp dialect", () => {
  const files = readdirSync(corpusDir("templates")).sort();
  it("has the real probe's answer for every corpus template", () => assert.equal(Object.keys(expected).length, files.length));
  for (const f of files) {
    const name = f.replace(/\.jinja$/, "");
    it(`${name}: the same caps as llama.cpp's caps_get`, () => {
      const { caps } = probeCaps(new TemplateDocument(readFileSync(corpusDir("templates", f), "utf8")), llamacpp);
      assert.deepEqual(
        Object.fromEntries(CAPS_KEYS.map((k) => [k, caps[k]])),
        Object.fromEntries(CAPS_KEYS.map((k) => [k, expected[name][k]])),
      );
    });
  }
});

function findings(text: string, nullTools = false) {
  const doc = new TemplateDocument(text);
  return probeFindings(doc, llamacpp, { nullTools }).map((f) => ({ ...f, text: text.slice(f.start, f.end) }));
}

describe("probe renders that throw, as findings", () => {
  it("a template llama.cpp cannot compile: one error saying llama.cpp infers nothing", () => {
    const f = findings("{{ messages | length ** 2 }}");
    assert.equal(f.length, 1);
    assert.equal(f[0].code, "llamacpp/probe-throws");
    assert.equal(f[0].severity, "error");
    assert.equal(f[0].text, "messages | length ** 2");
    assert.match(
      f[0].message,
      /llama\.cpp infers nothing: every capability reads false, tool arguments stay strings and tool calls fail at serve time/,
    );
    assert.match(f[0].message, /Fix: Write the power as a product\./);
  });

  it("a template that throws only on tool calls: what llama.cpp then believes, per probe", () => {
    const text = "{% for m in messages %}{{ m.content }}{% if m.tool_calls %}{{ m.tool_calls[0].id.nope() }}{% endif %}{% endfor %}";
    const probes = probeCaps(new TemplateDocument(text), llamacpp);
    assert.deepEqual(
      probes.errors.map((e) => e.probe),
      ["tool_object_arguments", "tool_string_arguments", "parallel_tool_calls"],
    );
    assert.equal(probes.caps.supports_tool_calls, false);
    const f = findings(text);
    assert.equal(f.length, 1);
    assert.equal(f[0].text, "m.tool_calls[0].id.nope()");
    assert.match(f[0].message, /supports_tools and supports_tool_calls read false, so tool calls fail at serve time/);
    assert.doesNotMatch(f[0].message, /every capability/);
  });

  it("a raise_exception the probe runs into is information: the template refuses that input on purpose", () => {
    const f = findings("{% if messages[0].role == 'system' %}{{ raise_exception('no system role') }}{% endif %}");
    assert.deepEqual(
      f.map((x) => [x.code, x.severity]),
      [["llamacpp/probe-refused", "information"]],
    );
    assert.match(f[0].message, /supports_system_role/);
  });

  it("the older probe with tools=[null]: a warning on the member test it trips on, with the fix", () => {
    const text = "{% for tool in tools %}{% if 'function' in tool %}{{ tool.function.name }}{% endif %}{% endfor %}";
    assert.deepEqual(findings(text), [], "today's probe passes");
    const f = findings(text, true);
    assert.equal(f.length, 1);
    assert.equal(f[0].code, "llamacpp/null-tools-probe");
    assert.equal(f[0].text, "'function' in tool");
    assert.match(f[0].message, /every capability reads false/);
    assert.match(f[0].message, /Fix: Skip null items: for tool in tools if tool\./);
    const { caps } = probeCaps(new TemplateDocument(text), llamacpp, { nullTools: true });
    assert.ok(
      CAPS_KEYS.every((k) => caps[k] === false),
      "with that probe, llama.cpp infers nothing",
    );
  });

  it("a probe render out of the checks' limits stops the probe there, with a warning saying the caps are not llama.cpp's", () => {
    const text = "{% for i in range(10000000) %}{% endfor %}";
    const r = probeCaps(new TemplateDocument(text), llamacpp);
    assert.deepEqual(r.probes, ["typed_content"], "no probe runs after the first that ran out");
    assert.equal(r.exhausted?.code, "limit/steps");
    const f = findings(text);
    assert.deepEqual(
      f.map((x) => [x.code, x.severity]),
      [["llamacpp/probe-exhausted", "warning"]],
    );
    assert.match(f[0].message, /capabilities shown are not what llama\.cpp infers/);
  });

  it("a value shared with itself is marked used once per container, not once per path (2^40 paths)", () => {
    const text =
      "{% set ns = namespace(s=[1]) %}{% for i in range(40) %}{% set ns.s = [ns.s, ns.s] %}{% endfor %}{{ ns.s|length }}{{ messages|tojson }}";
    const r = probeCaps(new TemplateDocument(text), llamacpp);
    assert.equal(r.exhausted, null);
    assert.equal(r.errors.length, 0);
  });
});
