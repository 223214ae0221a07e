// The minja rules of docs/dialects/minja-021c229.md that the corpus does not exercise, one case each.
// minja cannot run here, so each expectation is what minja.hpp does, as the doc explains.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { minja_021c229 } from "../../../server/src/dialects/minja-021c229";
import { TemplateDocument } from "../../../server/src/document/document";
import { parseJson } from "../../../server/src/interpreter/json";
import type { PyDict } from "../../../server/src/interpreter/dict";
import { render } from "../../../server/src/interpreter/render";

function run(template: string, context = "{}") {
  return render(new TemplateDocument(template), parseJson(context) as PyDict, { dialect: minja_021c229 });
}
function out(template: string, context = "{}"): string {
  const r = run(template, context);
  assert.equal(r.error, null, r.error?.message);
  return r.output;
}
function err(template: string, context = "{}"): { code: string; message: string } {
  const r = run(template, context);
  assert.ok(r.error, `rendered ${JSON.stringify(r.output)}`);
  return r.error;
}
const cases = (rows: [string, string, string?][]) => {
  for (const [template, expected, context] of rows)
    it(`${template} → ${JSON.stringify(expected)}`, () => assert.equal(out(template, context), expected));
};

describe("minja: whitespace", () => {
  cases([
    ["a\n  {{ 'x' }}", "a\nx"], // lstrip_blocks also before {{
    ["{% if true %}\n  {{ 'x' }}{% endif %}", "x"],
    ["{{ 'x' }}\ny", "x\ny"], // no trim_blocks after }}
    ["{# c #}\ny", "y"], // trim_blocks after a comment
    ["a\r\n{% if true %}b{% endif %}", "a\r\nb"], // newlines as written
    ["x {%- if true %} y{% endif %}", "x y"],
    ["a\n", "a"],
    ["  {% if true %}x{% endif %}  {% if true %}y{% endif %}", "x  y"], // not at a line start: kept
  ]);
});

describe("minja: printing and string conversion", () => {
  cases([
    ["{{ [none, true, 'it\\'s', 1.5] }}", `[null, True, "it's", 1.5]`],
    ["{{ {1: 'a', 'b': [1]} }}", "{'1': 'a', 'b': [1]}"],
    ["{{ (1, 2) }}", "[1, 2]"],
    ["{{ 1e16 }} {{ 0.0001 }} {{ 0.00001 }} {{ 123456789012345.6 }} {{ -0.0 }}", "1e+16 0.0001 1e-05 123456789012345.6 -0.0"],
    ["{{ 'x' ~ 2.5 }} {{ 'x' + none }} {{ 2.5 | string }}", "x2.500000 xNone 2.500000"],
    ["{{ 'x' ~ 0.0078125 }} {{ 0.0078125 | string }}", "x0.007812 0.007812"], // std::to_string is glibc's %f: exact ties to even
    ["{{ range }}", "{}"], // a callable is an empty object
    ["{{ x | tojson(indent=0) }}|{{ x | tojson }}", '{"a": [1,2]}|{"a": [1, 2]}', '{"x": {"a": [1, 2]}}'],
    ["{{ 'tab\\there' | tojson }}", '"tab\\there"'],
  ]);
});

describe("minja: values and operators", () => {
  cases([
    ["{{ 'a' and 'b' }} {{ '' or 'y' }} {{ 0 and 1 }}", "True y False"],
    ["{% if {} %}y{% endif %}", "y"], // every object is true
    ["{{ [0] == [0] }} {{ [1] == [1] }} {{ 0 in [0] }} {{ 1 == 1.0 }} {{ true == 1 }}", "False True False True False"],
    ["{{ x == [] }} {{ [] == x }}", "True False", '{"x": null}'],
    ["{{ 7 // 2 }} {{ -7 % 3 }} {{ -7 / 2 }} {{ 7.0 / 2 }} {{ 2 ** 0.5 }}", "3 -1 -3 3.5 1.4142135623730951"],
    ["{{ 9223372036854775807 + 1 }}", "-9223372036854775808"],
    ["{{ 'ab' * 2 }}{{ 'ab' * 0 }}", "abab"],
    ["{{ +'a' }}", "a"],
    ["{{ 'é' | length }} {{ 'é' | count }}", "2 2"],
    ["[{{ 'abc'[0] }}] {{ 'abc'[1:] }} {{ 'abc'[::-1] }} [{{ 'abc'.upper }}] [{{ 5.x }}]", "[] bc cba [] []"],
    ["{{ [1, 2, 3][-1] }} {{ [1, 2, 3][:2] }} [{{ [1, 2]['a'] }}]", "3 [1, 2] []"],
    ["{{ 'b' > 'a' }} {{ 'é' > 'z' }}", "True True"],
    ["{{ x is defined }} {{ x is none }} {{ y is defined }}", "False True False", '{"x": null}'],
    ["{{ {} is mapping }} {{ {} is iterable }} {{ 'a' is sequence }} {{ 1 is true }} {{ '' is false }}", "True True False True True"],
    ["{{ none | default('d') }} {{ 0 | default('d', true) }} {{ 0 | default('d', boolean=true) }}", "d d d"],
  ]);
  it("integer division by zero is a crash", () => assert.equal(err("{{ 1 / 0 }}").code, "runtime/zero-division"));
  it("comparing mixed types", () => assert.equal(err("{{ 1 < 'a' }}").message, "Cannot compare values: 1 < 'a'"));
  it("a null left side of <", () => assert.equal(err("{{ x < 1 }}").message, "Undefined value or reference"));
  it("a list read past its end", () =>
    assert.equal(err("{{ [1, 2, 3][1:5] }}").message, "vector::_M_range_check: __n (which is 3) >= this->size() (which is 3)"));
  it("a bound near the least int64: substr's size_t position, or the first index read (not 2^63 indices walked)", () => {
    const minInt = "-9223372036854775807 - 1";
    assert.equal(
      err("{{ 'abc'[-9223372036854775807:] }}").message,
      "basic_string::substr: __pos (which is 9223372036854775812) > this->size() (which is 3)",
    );
    assert.equal(
      err(`{{ 'abc'[${minInt}:] }}`).message,
      "basic_string::substr: __pos (which is 9223372036854775811) > this->size() (which is 3)",
    );
    assert.equal(
      err("{{ [1, 2][-9223372036854775807:] }}").message,
      "vector::_M_range_check: __n (which is 9223372036854775811) >= this->size() (which is 2)",
    );
    assert.equal(err(`{{ [1, 2][${minInt}::2] }}`).code, "runtime/index");
    assert.equal(err(`{{ 'abc'[${minInt}::2] }}`).code, "runtime/not-reproduced");
    assert.equal(out("{{ 'abc'[:-9223372036854775807] }}|{{ [1, 2, 3][::-9223372036854775807] }}"), "|[3]");
  });
  it("a slice that cuts a character, output", () => {
    assert.equal(err("{{ 'é'[:1] }}").code, "runtime/not-reproduced");
    assert.equal(err("{{ ['é'[:1]] }}").code, "runtime/not-reproduced");
    assert.equal(err("{% set c = 'héllo'[:2] ~ 'x' %}{{ c }}").code, "runtime/not-reproduced");
  });
  it("a slice that cuts a character is bytes that compare, measure and join without being output", () => {
    assert.equal(out("{% set c = 'héllo' %}{% if c[2:] == 'x' %}y{% endif %}done"), "done");
    assert.equal(out("{% set c = 'héllo' %}{{ c[2:] == c[2:] }} {{ c[2:] | length }} {{ c[:2] ~ c[2:] }}"), "True 4 héllo");
    assert.equal(out("{% set j = 'é'[:1] ~ 'é'[1:] %}{{ j == 'é' }}"), "True");
  });
  it("an attribute of null, by a bare name and otherwise", () => {
    assert.equal(err("{{ x.y }}").message, "'x' is not defined");
    assert.equal(err("{{ d.a.b }}", '{"d": {}}').message, "Trying to access property ''b'' on null!");
  });
  it("get<T> on a container", () => assert.equal(err("{{ [1] + 1 }}").message, "get<T> not defined for this value type: [1]"));
  it("a number expected", () =>
    assert.equal(err("{{ 1 - 'a' }}").message, "[json.exception.type_error.302] type must be number, but is string"));
});

describe("minja: statements and scope", () => {
  cases([
    ["{% for x in [1, 2] %}{% endfor %}{{ x }}", "2"], // the target leaks
    ["{% for x in [1, 2] if x > 5 %}{% endfor %}{{ x }}", "2"], // even when filtered out
    ["{% for x in [1, 2] %}{% if x == 2 %}{{ y }}{% endif %}{% set y = 'kept' %}{% endfor %}", "kept"], // one scope
    ["{% for x in none %}a{% else %}e{% endfor %}", "e"],
    ["{% for c in 'ab' %}{{ c }},{% endfor %}", "a,b,"],
    ["{% for k in {'b': 1, 'a': 2} %}{{ k }}{% endfor %}", "ba"],
    ["{% for x in [1, 2, 3] %}{{ loop.cycle('a', 'b') }}{% endfor %}", "aba"],
    ["{% for x in [1] %}[{{ loop.depth }}]{% endfor %}", "[]"],
    ["{% macro f(a, b=2) %}{{ a }}{{ b }}{% endmacro %}{{ f(b=3, a=1) }}", "13"],
  ]);
  it("too many positional arguments", () =>
    assert.equal(err("{% macro f(a) %}{% endmacro %}{{ f(1, 2) }}").message, "Too many positional arguments for macro f"));
  it("an unknown keyword argument", () =>
    assert.equal(err("{% macro f(a) %}{% endmacro %}{{ f(b=1) }}").message, "Unknown parameter name for macro f: b"));
  it("iterating a number", () => assert.equal(err("{% for x in 5 %}{% endfor %}").message, "For loop iterable must be iterable: 5"));
  it("unpacking a non-list", () =>
    assert.equal(
      err("{% for a, b in ['xy'] %}{% endfor %}").message,
      "Mismatched number of variables and items in destructuring assignment",
    ));
  it("a recursive loop() call crashes minja", () =>
    assert.equal(err("{% for x in [1] recursive %}{{ loop([]) }}{% endfor %}").code, "runtime/unsupported"));
  it("a call block on a method", () =>
    assert.equal(
      err("{% set ns = namespace(m=range) %}{% call ns.m(1) %}x{% endcall %}").message,
      "Invalid call block syntax - expected function call",
    ));
  it("a filter chain in a filter block", () =>
    assert.equal(err("{% filter upper | trim %}a{% endfilter %}").message, "Filter must be a callable"));
});

// LoopControlNode throws when reached; ForNode catches it only around its own body, and a macro call is
// an expression, whose evaluate turns it into a plain error (peer suite minja test-syntax.cpp:613-614).
describe("minja: break and continue outside a loop fail when reached", () => {
  cases([
    ["{% for x in [1, 2] %}{% filter upper %}a{% break %}{% endfilter %}{% endfor %}b", "b"], // a block body is no frame
    ["{% for x in [1] %}{% for y in [] %}{% else %}{% continue %}{% endfor %}a{% endfor %}b", "b"], // an else's belongs to the outer loop
    ["{% if false %}{% break %}{% endif %}a", "a"], // not reached
  ]);
  for (const [where, template] of [
    ["at the top level", "a{% break %}b"],
    ["in a for's else", "{% for x in [] %}{% else %}{% break %}{% endfor %}"],
    ["in a macro called from a loop", "{% macro m() %}{% break %}{% endmacro %}{% for x in [1] %}{{ m() }}{% endfor %}"],
    ["in a caller body", "{% macro m() %}{{ caller() }}{% endmacro %}{% for x in [1] %}{% call m() %}{% break %}{% endcall %}{% endfor %}"],
  ])
    it(where, () => {
      const e = err(template);
      assert.deepEqual([e.code, e.message], ["runtime/unsupported", "break outside of a loop"]);
    });
  it("continue says so", () => assert.equal(err("{% continue %}").message, "continue outside of a loop"));
});

describe("minja: filters and globals", () => {
  cases([
    ["{{ length([1, 2]) }} {{ tojson('a') }}", '2 "a"'], // filters are functions too
    ["{{ ' \\tx\\n ' | trim }} {{ 'aÉ' | upper }} {{ 'É' | lower }}", "x AÉ É"],
    ["{{ \"<a href='x'>\" | e }}", "&lt;a href=&apos;x&apos;&gt;"],
    ["{{ 'a\\nb\\n' | indent }}|{{ 'a\\n\\nb' | indent(2, true) }}", "a\nb\n|  a\n  \n  b"],
    ["{{ [1, 2.5, none, true] | join('-') }}", "1-2.500000-None-True"],
    ["{{ ['3x', ' 4', 'x', 2.9, true] | map('int') | list }}", "[3, 4, 0, 2, 1]"],
    // std::stol's out_of_range is 0 too; a million digits are not converted
    [
      "{{ ['9223372036854775807', '-9223372036854775808', '9223372036854775808', '00000000000000000000012'] | map('int') | list }}",
      "[9223372036854775807, -9223372036854775808, 0, 12]",
    ],
    ["{{ ('7' * 1000000) | int }}", "0"],
    ["{{ xs | selectattr('a') | list }}", "[1, 0, null]", '{"xs": [{"a": 1}, {"a": 0}, {"b": 2}]}'],
    ["{{ xs | selectattr('a', 'equalto', 1) | list }}", "[{'a': 1}]", '{"xs": [{"a": 1}, {"a": 0}]}'],
    ["{{ xs | map(attribute='a', default='z') | list }}", "[1, 'z']", '{"xs": [{"a": 1}, {}]}'],
    ["{{ {'b': 1, 'a': 2} | dictsort }} {{ {'b': 1} | items }}", "[['a', 2], ['b', 1]] [['b', 1]]"],
    ["{{ [1, 1, 2] | unique }} {{ [3] | last }} {{ range(5, 0, -2) }}", "[1, 2] 3 [5, 3, 1]"],
    ["{% set j = joiner(', ') %}{{ j() }}a{{ j() }}b", "a, b"],
    ["{% set ns = namespace(a=1) %}{% set ns.a = 2 %}{{ ns.a }} {{ ns }}", "2 {'a': 2}"],
    ["{{ strftime_now('%Y') is string }}", "True"],
  ]);
  it("a missing filter is a null callee", () => assert.equal(err("{{ 'a' | title }}").message, "Value is not callable: null"));
  it("tojson knows no ensure_ascii", () =>
    assert.equal(err("{{ 1 | tojson(ensure_ascii=false) }}").message, "Unknown argument ensure_ascii for function tojson"));
  it("default needs its argument", () =>
    assert.match(err("{{ 1 | default }}").message, /^default must have between 2 and 3 positional arguments/));
  it("join takes lists only", () => assert.equal(err("{{ 'ab' | join }}").message, "object is not iterable: 'ab'"));
  it("list takes lists only", () => assert.equal(err("{{ {'a': 1} | list }}").message, "object is not iterable"));
  it("select looks a filter up by name", () => assert.equal(err("{{ [1] | select('odd') | list }}").message, "Undefined filter: 'odd'"));
  it("selectattr looks a test up by name", () =>
    assert.equal(err("{{ [{}] | selectattr('a', 'defined') | list }}").message, "Undefined test: 'defined'"));
  it("an unknown test", () => assert.equal(err("{{ 1 is odd }}").message, "Unknown type for 'is' operator: odd"));
  it("range needs an end", () => assert.equal(err("{{ range(start=1) }}").message, "Missing required argument 'end' for function range"));
});

describe("minja: methods", () => {
  cases([
    [
      "{{ ' a '.strip() }}|{{ 'xxaxx'.strip('x') }}|{{ 'ab'.lstrip('a') }}|{{ 'hello world'.title() }}|{{ 'hELLO'.capitalize() }}",
      "a|a|b|Hello World|HELLO",
    ],
    ["{{ 'a,b'.split(',') }} {{ 'aXbX'.replace('X', '-', 1) }} {{ 'ab'.startswith('a') }}", "['a', 'b'] a-bX True"],
    ["{% set l = [1] %}{{ l.append(2) }}{{ l.insert(0, 0) }}{{ l.pop(0) }}{{ l }}", "0[1, 2]"],
    [
      "{% set d = {'a': 1} %}{{ d.get('a') }}{{ d.get('z', 9) }}{{ d.keys() }}{{ d.items() }}{{ d.pop('a') }}{{ d }}",
      "19['a'][['a', 1]]1{}",
    ],
    ["{% set ns = namespace(f=range) %}{{ ns.f(2) }}", "[0, 1]"],
  ]);
  it("an unknown method", () => assert.equal(err("{{ 'a'.format(1) }}").message, "Unknown method: format"));
  it("dict.values does not exist", () => assert.equal(err("{{ {'a': 1}.values() }}").message, "Unknown method: values"));
  it("a method on null", () => assert.equal(err("{{ x.strip() }}").message, "Trying to call method 'strip' on null"));
  it("split takes exactly one argument", () =>
    assert.equal(
      err("{{ 'a'.split() }}").message,
      "split method must have between 1 and 1 positional arguments and between 0 and 0 keyword arguments",
    ));
  it("pop needs a non-negative index", () => assert.equal(err("{{ [1].pop(-1) }}").message, "pop index out of range: -1"));
  it("a property that is not callable", () => assert.equal(err("{{ {'a': 1}.a() }}").message, "Property 'a' is not callable"));
});

describe("minja: what its parser refuses (every scenario fails)", () => {
  const refused: [string, string][] = [
    ["{{ x.0 }}", "Expected identifier in subscript"],
    ["{{ f(x).y }}", "Expected closing expression tag"],
    ["{% if f(x)[0] %}{% endif %}", "Expected closing block tag"],
    ["{{ [f(x).y] }}", "Expected comma or closing bracket in array"],
    ["{{ g(f(x).y) }}", "Expected closing parenthesis in call args"],
    ["{{ (f(x).y) }}", "Expected comma in tuple"],
    ["{{ x is divisibleby(3) }}", "Expected closing expression tag"],
    ["{{ x is defined == true }}", "Expected closing expression tag"],
    ["{% set a, b = 1, 2 %}", "Expected closing block tag"],
    ["{{ 1, 2 }}", "Expected closing expression tag"],
    ["{% for (a, b) in x %}{% endfor %}", "Expected variable names"],
    ["{{ (1,) }}", "Expected value expression"],
    ["{{ 'a' 'b' }}", "Expected closing expression tag"],
    ["{{ 1_000 }}", "Expected closing expression tag"],
    ["{{ 1e+3 }}", "Failed to parse number: '1e'"],
    ["{{ 1_0.5 }}", "Expected closing expression tag"],
    ["{{ x[1, 2] }}", "Expected closing bracket in subscript"],
    ["{{ () }}", "Expected value expression"],
    ["{% for a, (b, c) in x %}{% endfor %}", "Expected variable names"],
    ["{% if true +%}\n{% endif %}", "Expected closing block tag"],
    ["{% raw %}x{% endraw %}", "Expected block keyword"],
    ["{% with a = 1 %}{% endwith %}", "Expected block keyword"],
    ["{% block b %}{% endblock %}", "Unexpected block: block"],
    ["{% macro m() %}{% endmacro %}{% call(x) m() %}{% endcall %}", "Expected closing block tag"],
    ["{% set x | trim %}a{% endset %}", "Expected closing block tag"],
    ["a {%+ if true %}{% endif %}", "Expected block keyword"],
    ["{%+ if true %}{% endif %}", "Expected block keyword"],
    ["{% if false %}{% elif (f(x).y) %}{% endif %}", "Expected comma in tuple"],
  ];
  for (const [template, message] of refused) {
    it(template, () => {
      const r = run(template + "{{ 'after' }}", '{"x": [[1, 2]]}');
      assert.equal(r.output, "", "nothing renders");
      assert.match(r.error?.code ?? "", /^syntax\//);
      assert.equal(r.error?.message, message);
    });
  }
  it("parentheses restart the postfix chain; method calls chain", () =>
    assert.equal(out("{{ (range(3))[1] }} {{ ' A '.strip().lower() }}"), "1 a"));
});

describe("minja: groupings that are not reproduced (reported, not guessed)", () => {
  for (const t of [
    "{{ 'a' ~ 'b' == 'ab' }}",
    "{{ 'a' ~ 'b' and 'c' }}",
    "{{ 2 * 3 ** 2 }}",
    "{{ 2 * 3 | abs }}",
    "{{ 1 < 2 < 3 }}",
    "{{ 1 + 2 is number }}",
    "{{ '\\u00e9' }}",
  ]) {
    it(t, () => assert.equal(err(t).code, "runtime/not-reproduced"));
  }
  it("`a ~ b is t` groups the same in both", () => assert.equal(out("{{ 'a' ~ 'b' is string }}"), "aTrue"));
});
