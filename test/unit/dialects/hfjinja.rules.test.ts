// Each rule of docs/dialects/hfjinja-0.5.13.md, checked twice: the real @huggingface/jinja gives the
// answer written here, and our dialect gives the same. The evidence is re-measured on every run.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hfjinja_0_5_13 } from "../../../server/src/dialects/hfjinja-0.5.13";
import { TemplateDocument } from "../../../server/src/document/document";
import { parseJson } from "../../../server/src/interpreter/json";
import type { PyDict } from "../../../server/src/interpreter/dict";
import { render } from "../../../server/src/interpreter/render";
import { renderRealHfJinja } from "../../helpers/realHfJinja";

const NOW = { year: 2026, month: 1, day: 15, hour: 9, minute: 30, second: 0, microsecond: 0 };

function ours(template: string, context: string): { out?: string; error?: string } {
  const r = render(new TemplateDocument(template), parseJson(context) as PyDict, { dialect: hfjinja_0_5_13, now: NOW });
  return r.error ? { error: r.error.message } : { out: r.output };
}

/** [template, expected output or Error-message prefix, context JSON] */
type Row = [string, string | RegExp, string?];

function rules(title: string, rows: Row[]): void {
  describe(title, () => {
    for (const [template, expected, context = "{}"] of rows) {
      it(`${template} → ${String(expected)}`, () => {
        const real = renderRealHfJinja(template, JSON.parse(context), { now: NOW });
        const mine = ours(template, context);
        if (expected instanceof RegExp) {
          assert.match("error" in real ? real.error : "", expected, `the engine gives ${JSON.stringify(real)}`);
          assert.match(mine.error ?? "", expected, `we give ${JSON.stringify(mine)}`);
        } else {
          assert.deepEqual(real, { out: expected }, "the engine");
          assert.deepEqual(mine, { out: expected }, "our dialect");
        }
      });
    }
  });
}

rules("hfjinja: what the parser refuses", [
  ["{% raw %}x{% endraw %}", /^SyntaxError: Unknown statement type: raw/],
  ["{% for x in [1] recursive %}{% endfor %}", /^Error: Parser Error: Expected closing statement token/],
  ["{{ 3 is divisibleby(3) }}", /^Error: Parser Error: Expected closing expression token/],
  ["{{ 1e3 }}", /^Error: Parser Error: Expected closing expression token/],
  ["{% if true +%}{% endif %}", /^SyntaxError: Unexpected token: CloseStatement/],
  ["{{ '\\d' }}", /^SyntaxError: Unexpected escaped character: d/],
  ["{{ 1, 2 }}", /^Error: Parser Error/],
  ["{% filter upper | trim %}a{% endfilter %}", /^Error: Parser Error/],
]);

rules("hfjinja: accepted where Jinja2 differs", [
  ["{{ x.0 }}{% set a, b = 1, 2 %}{{ a }}{{ b }}", "a12", '{"x": "ab"}'],
  ["{{ 'a' 'b' }}{% generation %}g{% endgeneration %}", "abg"],
]);

rules("hfjinja: whitespace", [
  ["a\n  {% if true %}x{% endif %}\n  {{ 'y' }}\n", "a\nx  y"],
  ["{% if true %}  \nx{% endif %}", "  \nx"],
  ["a\n{{ 'b' }}\n{# c #}\nd", "a\nb\nd"],
  ["x {{- ' a ' -}} y", "x a y"],
]);

rules("hfjinja: values and printing", [
  ["{{ x }}|{{ y }}|{{ 1.0 }}|{{ 2.5 }}|{{ -0.0 }}", "1|1.5|1.0|2.5|-0.0", '{"x": 1.0, "y": 1.5}'],
  ["{{ [1, 'a', none, true] }}|{{ {'a': 1} }}|{{ true }}|{{ none }}|{{ undef }}", '[1, "a", null, true]|{"a": 1}|true||'],
  ["{{ x }}", '{"a": [1, {}], "b": null}', '{"x": {"a": [1, {}], "b": null}}'],
  ["{{ (1, 'a') | join }}", "1a"],
  ["{{ 'a' ~ 1.0 }}|{{ [1.5, [1]] ~ 'a' }}|{{ {'a': 1} ~ '' }}", "a1|1.5,[1]a|[object Map]"],
  ["{{ 'a' and 'b' }}|{{ 0 or 'x' }}|{% if {} %}y{% else %}n{% endif %}", "b|x|n"],
  ["{{ 1 == true }} {{ '1' == 1 }} {{ none == undef }} {{ [1] == [1] }} {{ [1] == '1' }}", "true true true false true"],
  ["{{ 3/2 }} {{ 4/2 }} {{ 7//2 }} {{ -7 % 3 }} {{ 2**10 }} {{ 2 ** -1 }} {{ 1/0 }}", "1.5 2.0 3 -1 1024 0.5 Infinity"],
  ["{{ 'a' + 1 }}|{{ [1] + [2] }}|{{ 'a' ~ undef ~ 'b' }}", "a1|[1, 2]|ab"],
  ["{{ 7 % 0 }}|{{ 7 // 0 }}|{{ (0 // 0) is odd }}|{{ (0 // 0) is integer }}|{{ [7 % 0] | tojson }}", "NaN|Infinity|true|true|[null]"],
  [
    "{{ 9007199254740993 }}|{{ 9007199254740993 is odd }}|{{ x }}",
    "9007199254740992|false|12345678901234567000",
    '{"x": 12345678901234567890}',
  ],
  ["{{ 'a' in 'abc' }} {{ 1 in [1.0] }} {{ 'a' in {'a': 1} }} {{ 1 in undef }}", "true true true false"],
  ["{{ undef.x.y }}|{{ none.x }}|{{ [1, 2][-1] }}|{{ 'abc'[5] }}|{{ 'abc'.length }}|{{ [1, 2].length }}", "||2||3|2"],
  ["{{ '😀'|length }} {{ '😀'[::-1] }}", "2 😀"],
  ["{{ 'a' ~ none }}", /^Error: Cannot perform operation on null values/],
  ["{{ 'a' + undef }}", /^Error: Cannot perform operation \+ on undefined values/],
  ["{{ 'a' < 'b' }}", /^SyntaxError: Unknown operator "<" between StringValue and StringValue/],
  ["{{ [1] in [[1]] }}", /^SyntaxError: Unknown operator "in" between ArrayValue and ArrayValue/],
  ["{{ (1, 2) }}", /^Error: Cannot convert to JSON: TupleValue/],
]);

rules("hfjinja: tests", [
  [
    "{{ 1 is true }} {{ true is true }} {{ x is defined }} {{ x is none }} {{ {} is iterable }} {{ {} is sequence }} {{ 'Ab' is lower }}",
    "false true true true false true false",
    '{"x": null}',
  ],
  ["{{ 3.0 is odd }}", /^Error: cannot odd on FloatValue/],
  ["{{ 1 is foo }}", /^Error: Unknown test: foo/],
]);

rules("hfjinja: filters", [
  [
    "{{ x | length }}|{{ x | first }}|{{ x | last }}|{{ x | reverse }}|{{ x | sort }}|{{ x | join }}|{{ x | join(', ') }}|{{ x | unique }}|{{ x | string }}",
    "4|3|1|[1, 2, 1, 3]|[1, 1, 2, 3]|3121|3, 1, 2, 1|[3, 1, 2]|[3, 1, 2, 1]",
    '{"x": [3, 1, 2, 1]}',
  ],
  [
    "{{ 'hello-world éa' | title }}|{{ 'hELLO' | capitalize }}|{{ '3.5' | int }}|{{ 'x' | int }}|{{ 'x' | int(7) }}|{{ 'x\\ny' | indent }}|{{ 'a\\n\\nb' | indent(2, true) }}",
    "Hello-World éA|HELLO|3|0|7|x\n    y|  a\n\n  b",
  ],
  ["{{ 5 | abs }}|{{ 3.7 | int }}|{{ 3 | float }}|{{ 3.0 | string }}|{{ true | string }}|{{ true | int }}", "5|3|3.0|3.0|true|1"],
  ["{{ x | default('d') }}|{{ none | default('d') }}|{{ '' | default('d', true) }}", "d||d"],
  ["{{ x | tojson(indent=2) }}", '{\n  "a": [\n    1,\n    {}\n  ],\n  "b": []\n}', '{"x": {"a": [1, {}], "b": []}}'],
  [
    "{{ x | tojson(sort_keys=true, separators=(',', ':')) }}|{{ 'é😀' | tojson(ensure_ascii=true) }}",
    '{"a":"é","b":1}|"\\u00e9\\ud83d\\ude00"',
    '{"x": {"b": 1, "a": "é"}}',
  ],
  [
    "{{ xs | selectattr('a') | list }}|{{ xs | rejectattr('a', 'equalto', '1') | list }}|{{ xs | map(attribute='a', default='z') | list }}",
    '[{"a": 1}]|[{"a": 1}, {"a": 0}, {"b": 2}]|[1, 0, "z"]',
    '{"xs": [{"a": 1}, {"a": 0}, {"b": 2}]}',
  ],
  [
    "{{ d | items }}|{{ d | dictsort }}|{{ d | length }}|{{ d | keys }}",
    '[["b", 1], ["a", 2]]|[["a", 2], ["b", 1]]|2|["b", "a"]',
    '{"d": {"b": 1, "a": 2}}',
  ],
  [
    "{{ 'aaa' | replace('a', 'b', 2) }}|{{ ['b', 'A', 'a'] | sort }}|{{ [{'k': 2}, {'k': 1}] | sort(attribute='k') }}",
    'bba|["A", "a", "b"]|[{"k": 1}, {"k": 2}]',
  ],
  ["{{ [1] | length() }}", /^Error: Unknown ArrayValue filter: length/],
  ["{{ 1 | default }}", /^Error: Unknown NumericValue filter: default/],
  ["{{ xs | selectattr('a', 'equalto', 1) | list }}", /^Error: arguments of `selectattr` must be strings/, '{"xs": [{"a": 1}]}'],
  ["{{ [1, 2] | select('odd') | list }}", /^Error: Unknown ArrayValue filter: select/],
  ["{{ '<b>' | e }}", /^Error: Unknown StringValue filter: e/],
]);

rules("hfjinja: methods and globals", [
  [
    "{{ ' a  b '.split() }}|{{ 'a,b,c'.split(',', 1) }}|{{ 'aXbX'.replace('X', '-') }}|{{ 'abc'.strip('a') }}|{{ 'abc'.startswith(('x', 'a')) }}",
    '["a", "b"]|["a", "b,c"]|a-b-|abc|true',
  ],
  [
    "{{ d.items() }}|{{ d.keys() }}|{{ d.values() }}|{{ d.get('a') }}|{{ d.get('z', 5) }}",
    '[["a", 1], ["b", [2]]]|["a", "b"]|[1, [2]]|1|5',
    '{"d": {"a": 1, "b": [2]}}',
  ],
  [
    "{{ range(3) }}|{{ range(1, 10, 3) }}|{{ strftime_now('%Y-%m-%d %H:%M %b %B %S') }}",
    "[0, 1, 2]|[1, 4, 7]|2026-01-15 09:30 Jan January %S",
  ],
  ["{% set ns = namespace(a=1) %}{% for i in [1] %}{% set ns.a = 2 %}{% endfor %}{{ ns.a }}|{{ ns }}", '2|{"a": 2}'],
  ["{{ [1].append(2) }}", /^Error: Cannot call something that is not a function: got UndefinedValue/],
  ["{{ '{}'.format(1) }}", /^Error: Cannot call something that is not a function: got UndefinedValue/],
  ["{{ raise_exception('boom') }}", /^Error: boom/],
]);

rules("hfjinja: statements and scope", [
  ["{% for x in [1, 2] %}{% set q = x %}{% endfor %}[{{ q }}]|{% for x in [1, 2] %}{{ q }}{% set q = x %}{% endfor %}", "[]|1"],
  ["{% for x in [1, 2] %}a{% if x == 1 %}{% continue %}{% endif %}b{% endfor %}", "ab"],
  ["{% for x in [1] %}{% break %}{% else %}E{% endfor %}", "E"],
  ["{% filter upper %}{% set y = 1 %}{% endfilter %}{{ y }}|{% set s %}{% set z = 2 %}{% endset %}{{ z }}", "1|2"],
  [
    "{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}|{% for k in d %}{{ k }}{% endfor %}",
    "a=1;b=x;|ab",
    '{"d": {"a": 1, "b": "x"}}',
  ],
  ["{% macro f() %}{{ varargs | length }}{{ kwargs }}{% endmacro %}{{ f(1, 2, y=3) }}", '2{"y": 3}'],
  ["{% macro m() %}in{% endmacro %}{% call m() %}x{% endcall %}", "in"],
  ["{% for c in 'abc' %}{% endfor %}", /^Error: Expected iterable or object type in for loop: got StringValue/],
  ["{% for a, b in [(1, 2)] %}{% endfor %}", /^Error: Cannot unpack non-iterable type: TupleValue/],
]);

rules("hfjinja: break and continue are exceptions that only a loop catches", [
  ["a{% break %}b", /^Error: /],
  ["{% for x in [] %}{% else %}{% continue %}{% endfor %}", /^Error: /],
  ["{% macro m() %}b{% break %}c{% endmacro %}a{{ m() }}", /^Error: /],
  ["{% macro m() %}b{% break %}c{% endmacro %}a{% for i in [1, 2] %}y{{ m() }}z{% endfor %}d", "ad"],
  ["{% macro m() %}b{% continue %}c{% endmacro %}{% for i in [1, 2] %}{{ i }}{{ m() }}z{% endfor %}d", "d"],
  ["{% macro m() %}{{ caller() }}{% endmacro %}{% for x in [1, 2] %}{% call m() %}q{% break %}{% endcall %}{% endfor %}e", "e"],
  ["{% for x in [1] %}{% for y in [] %}{% else %}{% break %}{% endfor %}a{% endfor %}b", "b"],
]);

describe("hfjinja: not reproduced", () => {
  it("`first` of an empty list: a JS undefined that crashes where used, reported rather than guessed", () => {
    assert.match((renderRealHfJinja("{{ [] | first }}", {}) as { error: string }).error, /^TypeError: Cannot read properties of undefined/);
    assert.deepEqual(renderRealHfJinja("{% set v = [] | first %}[{{ v }}]", {}), { out: "[]" });
    const r = render(new TemplateDocument("{{ [] | first }}"), parseJson("{}") as PyDict, { dialect: hfjinja_0_5_13 });
    assert.equal(r.error?.code, "runtime/not-reproduced");
  });
});
