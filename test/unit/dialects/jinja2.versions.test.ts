// jinja2 is Jinja2 3.1.6; jinja2-3.1.2 keeps 3.1.2 where later releases changed behaviour. The
// peer suite (../shared/peer-suites/jinja2.json, Jinja2 3.1.6's own tests) stores 3.1.2's rendering
// of each such case as its `alt`: both dialects must give their version's answer on them.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { describe, it } from "node:test";
import { jinja2_3_1_2, jinja2_3_1_6 } from "../../../server/src/dialects";
import { TemplateDocument } from "../../../server/src/document";
import { type Dialect, parseJson, type PyDict, render } from "../../../server/src/interpreter";
import { loadPeerSuite, PEER_SUITES, type PeerCase } from "../../helpers/peerSuites";

interface Expectation {
  expected?: string;
  expected_error?: boolean;
}
type VersionCase = PeerCase & { alt?: (Expectation & { label: string })[] };

function renders(dialect: Dialect, template: string, contextJson = "{}") {
  return render(new TemplateDocument(template), parseJson(contextJson) as PyDict, { dialect });
}

function check(dialect: Dialect, c: VersionCase, want: Expectation): void {
  const r = renders(dialect, c.template, c.context_json ?? JSON.stringify(c.context ?? {}));
  if (want.expected_error) assert.ok(r.error, `${c.id}: ${dialect.engine} rendered ${JSON.stringify(r.output)}`);
  else {
    assert.equal(r.error, null, `${c.id}: ${r.error?.message}`);
    assert.equal(r.output, want.expected, c.id);
  }
}

const absent = !existsSync(PEER_SUITES) && "../shared/peer-suites is not next to the checkout";

describe("the version cases of Jinja2's own suite", { skip: absent }, () => {
  const cases = absent ? [] : (loadPeerSuite("jinja2").cases as VersionCase[]).filter((c) => c.alt);
  it("finds the 13 cases where 3.1.2 and 3.1.6 differ", () => assert.equal(cases.length, 13));
  for (const c of cases) {
    it(c.id, () => {
      check(jinja2_3_1_6, c, c);
      const old = c.alt!.find((a) => a.label.startsWith("Jinja2 3.1.2"));
      assert.ok(old, c.id);
      check(jinja2_3_1_2, c, old);
    });
  }
});

describe("jinja2 (3.1.6) and jinja2-3.1.2 on the behaviours that changed", () => {
  const both = (template: string, ctx: string, v316: string | RegExp, v312: string | RegExp) => {
    for (const [d, want] of [
      [jinja2_3_1_6, v316],
      [jinja2_3_1_2, v312],
    ] as const) {
      const r = renders(d, template, ctx);
      const got = r.error ? r.error.message : r.output;
      if (typeof want === "string") assert.equal(got, want, `${d.engine}: ${template}`);
      else assert.match(got, want, `${d.engine}: ${template}`);
    }
  };

  it("xmlattr refuses a key that would end the attribute name (3.1.3/3.1.4)", () => {
    both("{{ {'a b': 1}|xmlattr }}", "{}", "ValueError: Invalid character in attribute name: 'a b'", ' a b="1"');
    both("{{ {'a/': 1}|xmlattr }}", "{}", /^ValueError: Invalid character/, ' a/="1"');
    both("{{ {'data-x': 1, 'id': none}|xmlattr }}", "{}", ' data-x="1"', ' data-x="1"');
    both("{{ {1: 2}|xmlattr }}", "{}", "TypeError: expected string or bytes-like object, got 'int'", ' 1="2"');
    both("{{ x|xmlattr }}", "{}", "UndefinedError: 'x' is undefined", "UndefinedError: 'x' is undefined");
  });

  it("int gives the default where int(float(x)) overflows (3.1.3); int() of an infinite float raises in both", () => {
    both("{{ '1e10000'|int }}|{{ '-1e10000'|int(7) }}", "{}", "0|7", "OverflowError: cannot convert float infinity to integer");
    both("{{ x|int }}", '{"x": 1e400}', /^OverflowError/, /^OverflowError/);
    both("{{ 'nan'|int(3) }}", "{}", "3", "3");
  });

  it("int of a string past Python's 4,300 digits falls back to float (Python ≥ 3.11), whose overflow 3.1.2 lets through", () => {
    // measured with Python 3.11 and Jinja2 3.1.6; a power-of-two base has no digit limit
    const fine =
      "{{ ('0' * 4300 ~ '12345678901234567890123')|int }}|{{ ('z' * 1000000)|int(base=36) }}|" +
      "{{ ('1' * 4301)|int(base=2)|string|length }}|{{ ('1' * 4300)|int|string|length }}|{{ ('3' * 5000)|int(base=4)|string|length }}";
    both(fine, "{}", "12345678901234567741440|0|1295|4300|3011", "12345678901234567741440|0|1295|4300|3011");
    both("{{ ('7' * 1000000)|int }}", "{}", "0", "OverflowError: cannot convert float infinity to integer");
  });

  it("set takes namespace attributes in a tuple target (3.1.4)", () => {
    both(
      "{% set ns = namespace(a=1, b=2) %}{% set ns.a, ns.b = ns.b, ns.a %}{{ ns.a }}{{ ns.b }}",
      "{}",
      "21",
      "TemplateSyntaxError: expected token 'end of statement block', got ','",
    );
    both("{% set ns = namespace() %}{% set x, ns.b = 1, 2 %}{{ x }}{{ ns.b }}", "{}", "12", /got '\.'$/);
    // Each namespace is checked before the value is evaluated.
    both(
      "{% set ns = 1 %}{% set ns.a, y = 1, 2 %}",
      "{}",
      "TemplateRuntimeError: cannot assign attribute on non-namespace object",
      /got ','$/,
    );
  });

  it("a name set in every branch of if/elif/else starts its frame undefined in 3.1.2", () => {
    const t = "{% if c %}{{ a.b }}{% set a = 1 %}{% elif d %}{% set a = 2 %}{% else %}{% set a = 3 %}{% endif %}{{ a }}";
    both(t, '{"a": {"b": 0}, "c": true}', "01", "UndefinedError: 'a' is undefined");
    both("[{{ a }}]" + t.replace("{{ a.b }}", ""), '{"a": 5, "c": true}', "[5]1", "[5]1");
    both(t.replace("{{ a.b }}", "[{{ a }}]"), '{"a": 5, "d": true}', "2", "2");
    // Without an else (or an elif) the name is not set in every branch: resolved from the context.
    both("{% if c %}{{ a.b }}{% set a = 1 %}{% else %}{% set a = 3 %}{% endif %}{{ a }}", '{"a": {"b": 0}, "c": true}', "01", "01");
    // An else that reads the name before setting it, or an enclosing frame that refers to it, also resolves it.
    both(t.replace("{% set a = 3 %}", "{{ a }}{% set a = 3 %}"), '{"a": {"b": 0}, "c": true}', "01", "01");
    const inLoop = "{% for i in [1] %}" + t + "{% endfor %}";
    both(inLoop, '{"a": {"b": 0}, "c": true}', "01", "UndefinedError: 'a' is undefined");
    both("{{ a.b }}" + inLoop, '{"a": {"b": 0}, "c": true}', "001", "001");
    both("{% macro m() %}" + t + "{% endmacro %}{{ m() }}", '{"a": {"b": 0}, "c": true}', "01", "UndefinedError: 'a' is undefined");
    // One elif that sets it is enough, and a nested if counts as part of its branch.
    const elifs = "{% elif d %}{% set a = 2 %}{% elif e %}{% else %}{% set a = 3 %}{% endif %}{{ a }}";
    both("{% if c %}[{{ a }}]{% set a = 1 %}" + elifs, '{"a": 5, "c": true}', "[5]1", "[]1");
    both("{% if c %}{% if x %}{% set a = 0 %}{% endif %}[{{ a }}]{% set a = 1 %}" + elifs, '{"a": 5, "c": true}', "[5]1", "[]1");
  });
});
