// The probes behind docs/dialects/llamacpp-v0.5.0.md: one small template per rule, grouped by the
// section of the document that states the rule. probes.test.ts renders each with our dialect and
// with llama.cpp's engine and requires the same bytes (or the same error).
export interface Probe {
  template: string;
  context?: Record<string, unknown>;
}

export const PROBES: Readonly<Record<string, readonly Probe[]>> = {
  printing: [
    { template: "[{{ x }}]", context: { x: null } },
    { template: "{{ [1, 'a', [2, none], true] }}|{{ {'a': 1} }}|{{ range }}|{{ x }}|{{ 1 if false }}" },
    { template: "{{ true }} {{ 1.0 }} {{ 2.50 }} {{ 0.1 + 0.2 }} {{ 1/3 }} {{ 1/0 }} {{ -1/0 }} {{ 0/0 }} {{ 0.0078125 }} {{ -0.0 }}" },
    { template: "{{ 100000000000000000000.0 }} {{ x }} {{ y }}", context: { x: 2 ** 60, y: 1.5e300 / 1e299 } },
    { template: "{{ [1, 'a', none, true, 1.5, \"q'\", (1,), (1, 2)]|string }} {{ {1: 2, none: 3, true: 4, 'k': [x]}|string }}" },
    { template: "{{ 'a' ~ 1 ~ none ~ [1, 'b'] ~ {'k': 1} }}|{{ 'a' + x }}|{{ none ~ 'b' }}" },
  ],
  numbers: [
    { template: "{{ 7 // 2 }}" },
    { template: "{{ 2 ** 3 }}" },
    { template: "{{ 3 / 2 }} {{ 7 % 3 }} {{ -7 % 3 }} {{ 7.5 % 2 }} {{ 5 % 0 }} {{ 5.0 % 0 }} {{ 2 * 3 }} {{ 2 * 1.5 }}" },
    {
      template: "{{ 9223372036854775807 }} {{ 9223372036854775807 + 0 }} {{ x * x }} {{ 9007199254740993 == 9007199254740992 }}",
      context: { x: 2 ** 40 },
    },
    { template: "{{ 99999999999999999999 }}" },
    {
      template:
        "{{ 1 == 1.0 }} {{ 1 == true }} {{ 1.5 == 1 }} {{ '1' == 1 }} {{ none == false }} {{ [1] == [1] }} {{ [[1]] == [[1]] }} {{ {'a': 1, 'b': 2} == {'b': 2, 'a': 1} }}",
    },
    { template: "{{ true + 1 }}" },
    { template: "{{ 1 ~ 2 }}" },
    { template: "{{ 'b' > 'a' }}" },
    { template: "{{ 1 < 2 < 3 }}" },
    { template: "{{ 1 + 2 ~ 'a' }} {{ 'a' ~ 1 + 2 }} {{ 2 * 3 ~ 'x' }} {{ not 1 == 2 }}" },
    { template: "{{ (2.5)|int }} {{ (-2.5)|int }} {{ 3|float }} {{ -3|abs }} {{ -0.0|abs }} {{ 12345678.5|string }} {{ 12345678.5 }}" },
    {
      template:
        "{{ '3.7'|int }} {{ '0x1A'|int }} {{ '12abc'|int }} {{ ' 42'|int }} {{ '3000000000'|int }} {{ 'abc'|int(7) }} {{ 'ff'|int(base=16) }} {{ '017'|int(base=0) }}",
    },
    {
      template:
        "{{ '0x1A'|float }} {{ '1e400'|float }} {{ '1e-310'|float }} {{ '  -1.5e2x'|float }} {{ 'INFINITY'|float }} {{ 'x'|float(3) }} {{ ''|float }}",
    },
    { template: "{{ [1.0, 0.5, 1e20]|tojson }} {{ 1.5e3 }}" },
    { template: "{{ x|tojson }} {{ (1/3)|tojson }} {{ 123456.5|tojson }} {{ 0.00001|tojson }}", context: { x: [1.5, 1234567.25, 1e-7] } },
  ],
  strings: [
    { template: "{{ 'héllo wörld'|upper }} {{ 'ÀB'|lower }} {{ 'hello-world foo_bar'|title }} {{ 'hÉllo WORLD'|capitalize }}" },
    {
      template:
        "{{ ('hello ' ~ 'world')|capitalize }} {{ ('ab' ~ 'cd')|title }} {{ '{}{}'.format('ab', 'cd')|capitalize }} {{ ('ab' ~ 'cd')[1:]|capitalize }}",
    },
    {
      template:
        "{% filter title %}{% filter upper %}{{ ['a', 'b'] }}{% endfilter %}c{% endfilter %}|{% filter title %}{% filter trim %} x{% endfilter %}y{% endfilter %}",
    },
    {
      template:
        "{% set s %}hello {{ 'world' }}{% endset %}{{ s|capitalize }}|{% filter title %}{{ ['b', 'A', 'c'] }}{% endfilter %}|{% macro m() %}a{{ 'b' }}{% endmacro %}{{ m()|title }}",
    },
    {
      template: "{{ 'abc'|length }} {{ 'é'|length }} {{ x|length }} {{ x[0] }}|{{ x[1:] }}|{{ 'abc'[-1] }}|{{ 'abc'[5] }}",
      context: { x: "日本" },
    },
    {
      template: "{{ '  a b  '|strip }}|{{ 'xxaxx'.strip('x') }}|{{ '\u00a0a'.strip() }}|{{ 'éa'.strip('é') }}|{{ x|trim }}|",
      context: { x: "\u000ba\f" },
    },
    {
      template:
        "{{ 'a b  c'.split(' ')|tojson }} {{ 'a,b,c'.rsplit(',', 1)|tojson }} {{ 'a,b,c'.split(',', 1)|join('|') }} {{ 'abc'.replace('', '-') }} {{ 'aaa'.replace('a', 'b', 0) }}",
    },
    { template: "{{ 'a'.split('') }}" },
    { template: "{{ 'aaa'.replace('a', 'b', 2) }}" },
    { template: "{{ '{} and {}'.format(1, 'x') }} {{ '%s'|format(1) }}" },
    { template: "{{ '{0}'.format(1) }}" },
    {
      template:
        "{{ 'a\\nb\\n'|indent(2, true) }}|{{ 'a\\n\\nb'|indent(2, blank=true) }}|{{ '\\na'|indent(2) }}|{{ 'a'|indent('--', true) }}",
    },
    { template: "{{ 'abc'.startswith('ab') }} {{ 'abc'|startswith('a') }} {{ 'abc' is lower }} {{ 'a1' is lower }} {{ '' is upper }}" },
    { template: "{{ 'abc'.find('b') }}" },
    { template: "{{ 'a'.join(['x']) }}" },
    { template: "{{ 'abc'|reverse }}" },
    { template: "{{ 'ab' * 3 }}|{{ 3 * 'ab' }}|{{ 'a' * -1 }}|{{ 'a' + 1 }}|{{ 1 + 'a' }}|{{ 'a' ~ true }}" },
    { template: "{{ 123|upper }} {{ none|upper }} {{ [1]|upper }} {{ true|lower }} {{ missing|upper }}|{{ 12|replace('1', 'x') }}" },
    { template: "{{ 12|upper }}|{{ 12|upper() }}" },
    { template: "{{ 'x\\d' }}" },
    { template: "{{ 'a\\tb\\\\c\\'d' }} {{ 'a' \"b\" }}" },
  ],
  undefined: [
    {
      template:
        "{{ x.y.z }}|{{ x['y'] }}|{{ none.y }}|{{ 'a'.y }}|{{ x.y is defined }}|{{ x|length }}|{{ x|upper }}|{{ x|default('d') }}|{% for i in x %}{{ i }}{% endfor %}",
    },
    { template: "{{ x.y() }}" },
    { template: "{{ x + 1 }}" },
    { template: "{{ x in [1] }}" },
    { template: "{{ 1 in x }} {{ 1 not in x }} {{ x ~ 'a' }}" },
    { template: "{{ x|tojson }}" },
    { template: "{{ [x]|string }}" },
  ],
  membership: [
    { template: "{{ 'function' in tool }}", context: { tool: null } },
    {
      template: "{{ none in [none] }} {{ none in {'a': 1} }} {{ 'a' in {'a': 1} }} {{ 'ab' in 'cabd' }} {{ 1 in [1.0] }} {{ true in [1] }}",
    },
    { template: "{{ 1 in '123' }}" },
    { template: "{{ ['a'] in [['a']] }}" },
    { template: "{{ [1] in {'a': 1} }}" },
  ],
  access: [
    { template: "{{ x.0 }}{{ x.1 }}|{{ x.5 }}|{{ x[-1] }}|{{ d.0 }}|{{ d[0] }}|{{ d['0'] }}", context: { x: ["a", "b"], d: { "0": "z" } } },
    { template: "{{ d.items }}|{{ d['items'] }}|{{ d.keys() }}|{{ d.get('k', 2) }}|{{ d.get('items') }}", context: { d: { items: 5 } } },
    { template: "{{ [1, 2][true] }}" },
    { template: "{{ x[0] }}", context: { x: null } },
    { template: "{{ range.x }}" },
    { template: "{{ x[[1]] }}", context: { x: {} } },
    {
      template:
        "{{ [1, 2, 3][1:] }} {{ [1, 2, 3][::-1] }} {{ [1, 2, 3, 4][3:-1:-1] }} {{ [1, 2, 3][-2:] }} {{ 'abcdef'[1:4] }} {{ x[::-1] }}",
      context: { x: "aé" },
    },
    { template: "{{ [1, 2, 3][::0] }}" },
    { template: "{{ [1, 2, 3]|slice(2) }}" },
  ],
  filters: [
    {
      template:
        "{{ [3, 1, 2]|sort|join }} {{ [3, 1, 2]|sort(reverse=true)|join(',') }} {{ ['b', 'A', 'a']|sort|join }} {{ [1, 'a', 2]|sort|join }}",
    },
    {
      template: "{{ x|sort(attribute='k')|map(attribute='v')|join }}",
      context: { x: Array.from({ length: 40 }, (_, i) => ({ k: i % 3, v: String.fromCharCode(65 + (i % 26)) })) },
    },
    {
      template: "{{ xs|map(attribute='n')|list }}|{{ xs|map(attribute='m', default='z')|join }}|{{ [[1, 2], [3]]|map(attribute=0)|join }}",
      context: { xs: [{ n: 2 }, { m: 1 }] },
    },
    { template: "{{ ['a', 'b']|map('upper')|join }}" },
    {
      template:
        "{{ xs|selectattr('a')|list|length }} {{ xs|rejectattr('a')|list|length }} {{ xs|selectattr('a', 'equalto', 1)|list|length }} {{ [1, 2, 3]|select('gt', 1)|join }}",
      context: { xs: [{ a: 1 }, { a: 0 }, {}] },
    },
    { template: "{{ [1, 2, 3]|select('odd')|list }}" },
    { template: "{{ xs|selectattr('a', 'defined')|list }}", context: { xs: [{ a: 1 }] } },
    {
      template:
        "{{ [1, 2.5, 'a']|join }} {{ xs|join(',', attribute='n') }} {{ [1, 2]|count }} {{ []|first }}|{{ [1, 5, 3]|max }}{{ []|min }}|",
      context: { xs: [{ n: "a" }, { n: "b" }] },
    },
    { template: "{{ [none]|join }}" },
    { template: "{{ [1, 2]|sum }}" },
    { template: "{{ [1, 2, 1]|unique|list }}" },
    { template: "{{ [1, 2]|max(attribute='x') }}" },
    {
      template:
        "{{ {'b': 1, 'a': 2}|dictsort }}|{% for k, v in {'b': 1, 'a': 2}|dictsort(by='value', reverse=true) %}{{ k }}{{ v }}{% endfor %}|{{ {'b': 1}|items|list }}",
    },
    { template: "{{ {'a': 1}|dictsort|join }}" },
    { template: "{{ {}|default(1) }}" },
    { template: "{{ 'abc'|default }}" },
    { template: "{{ ''|default('x') }}|{{ ''|default('x', true) }}|{{ none|default('x') }}|{{ 0|default(1, true) }}|{{ x|d('d') }}" },
    {
      template: "{{ x|tojson(indent=2) }}|{{ x|tojson(indent=0) }}|{{ x|tojson(separators=[',', ':']) }}|{{ x|tojson(ensure_ascii=true) }}",
      context: { x: { a: [1, "é😀\u0001"], b: {}, c: [] } },
    },
    { template: "{{ x|tojson(sort_keys=true) }}", context: { x: {} } },
    {
      template:
        "{{ none|string }} {{ none|safe }} {{ none|items }}|{{ none|map(attribute='a')|list }}|{{ [1]|string }} {{ {'a': 'x'}|string }}",
    },
    { template: "{{ none|length }}" },
    { template: "{{ [1]|safe }}" },
    { template: "{{ 'a'|e }}" },
    { template: "{{ 'a b'|wordcount }}" },
    { template: "{{ 2.567|round(1) }}" },
    { template: "{{ x|groupby('k') }}", context: { x: [] } },
    { template: "{{ {'a': 1}|attr('a') }}" },
    { template: "{{ args|items }}", context: { args: '{"a": 1}' } },
    { template: "{{ args|from_json }}", context: { args: "{}" } },
  ],
  tests: [
    {
      template:
        "{{ x is defined }} {{ none is none }} {{ 1 is integer }} {{ 1.0 is float }} {{ true is number }} {{ {} is iterable }} {{ x is iterable }} {{ {} is sequence }} {{ range is callable }} {{ 'odd' is test }}",
    },
    {
      template:
        "{{ 1 is eq(1.0) }} {{ none is eq(none) }} {{ 2 is gt(1) }} {{ 'a' is in(['a']) }} {{ 3 is divisibleby(3) }} {{ true is true }} {{ 0 is false }}",
    },
    { template: "{{ 6 is divisibleby 3 }}" },
    { template: "{{ 1 is le(2) }}" },
    { template: "{{ 1 is sameas(1) }}" },
    { template: "{{ true is odd }}" },
    { template: "{{ test_is_odd(3) }} {{ tojson([1]) }}" },
  ],
  loops: [
    {
      template:
        "{% for x in [1, 2, 3] %}{{ loop.index0 }}{{ loop.first }}{{ loop.last }}{{ loop.length }}{{ loop.revindex }}{{ loop.previtem }}{{ loop.nextitem }}|{% endfor %}",
    },
    { template: "{% for x in [1] %}{{ loop.depth }}|{{ loop.cycle }}|{{ loop|length }}{% endfor %}" },
    { template: "{% for x in [1] %}{{ loop.cycle('a', 'b') }}{% endfor %}" },
    { template: "{% for x in 'abc' %}{{ x }}{% endfor %}" },
    { template: "{% for x in none %}{{ x }}{% endfor %}" },
    { template: "{% for k in {'a': 1, 'b': 2} %}{{ k }}{% endfor %}|{% for k, v in {'a': 1, 'b': 2} %}{{ k }}{{ v }}{% endfor %}" },
    { template: "{% for a, b in [[1, 2, 3]] %}{{ a }}{% endfor %}" },
    {
      template:
        "{% for x in [1, 2, 3] if x > 1 %}{{ loop.index }}{{ x }}{% endfor %}|{% for x in [1, 2] %}{% if x == 1 %}{% continue %}{% endif %}{{ x }}{% else %}E{% endfor %}",
    },
    { template: "{% for x in [1] %}{% break %}{% else %}E{% endfor %}|{% for x in [1, 2] %}{% continue %}{% else %}F{% endfor %}" },
    {
      template:
        "{% for x in [1, 2, 3] %}{% if loop.first %}{% set a = 5 %}{% endif %}{{ a }}{% endfor %}|{{ a }}|{% for x in [] %}{% else %}{% set y = 1 %}{% endfor %}{{ y }}",
    },
    { template: "{% for x in t recursive %}{{ x }}{% endfor %}", context: { t: [] } },
    {
      template:
        "{% for x in [1, 2, 3] %}a{% if x == 2 %}b{% continue %}{% endif %}{% if x == 3 %}c{% filter upper %}d{% break %}{% endfilter %}{% endif %}|{% endfor %}",
    },
    // break_statement::signal: only for_statement catches it, across macro and caller calls
    { template: "a{% break %}b" },
    { template: "{% for x in [] %}{% else %}{% continue %}{% endfor %}z" },
    { template: "{% macro m() %}b{% break %}c{% endmacro %}a{{ m() }}d" },
    { template: "{% macro m() %}b{% break %}c{% endmacro %}a{% for i in [1, 2] %}y{{ m() }}z{% endfor %}d" },
    { template: "{% macro m() %}b{% continue %}c{% endmacro %}a{% for i in [1, 2] %}y{{ i }}{{ m() }}z{% endfor %}d" },
    {
      template:
        "{% macro m() %}{{ caller() }}{% endmacro %}{% for x in [1, 2] %}{{ x }}{% call m() %}q{% break %}{% endcall %}{% endfor %}e",
    },
  ],
  statements: [
    {
      template:
        "{% set ns = namespace(a=1) %}{% for x in [1, 2] %}{% set ns.a = ns.a + x %}{% endfor %}{{ ns.a }}|{% set d = {} %}{% set d.x = 1 %}{{ d.x }}|{{ ns }}",
    },
    { template: "{% set a.b = 1 %}" },
    {
      template:
        "{% set x = [] %}{{ x.append(1)|length }}|{% set y = x %}{% set _ = y.append(2) %}{{ x|length }}|{{ x.pop() }}|{{ x|length }}",
    },
    { template: "{% set a, b = 1, 2 %}{{ a }}{{ b }}|{% set t = (1, 2) %}{{ t|length }}" },
    { template: "{% set x %}a{{ 1 }}{% endset %}{{ x }}|{{ x|length }}|{% filter upper %}{% set y = 3 %}ab{% endfilter %}{{ y }}" },
    { template: "{% set x | upper %}ab{% endset %}{{ x }}" },
    { template: "{% filter upper|lower %}ab{% endfilter %}" },
    { template: "{% raw %}{{ x }}{% endraw %}" },
    { template: "{% with a = 1 %}{{ a }}{% endwith %}" },
    { template: "{% generation %}hi{% endgeneration %}|{%- generation -%} x {%- endgeneration -%}" },
    { template: "{% set true = 5 %}{{ true }}|{{ True }}" },
    { template: "{{ none }}|{{ x }}", context: { none: "shadowed", x: true } },
  ],
  macros: [
    {
      template: "{% macro m(a, b=2) %}{{ a }}-{{ b }}{% endmacro %}{{ m(1) }}|{{ m(b=3) }}|{{ m(1, 5) }}|{{ m(5, a=3) }}|{{ m(1, 2, 3) }}",
    },
    { template: "{% macro m(a, b) %}{{ a }}{% endmacro %}{{ m(1) }}" },
    { template: "{% macro m(a) %}{{ a }}{{ g }}{% endmacro %}{% set g = 1 %}{{ m(0) }}{% for g in [7] %}{{ m(0) }}{% endfor %}" },
    { template: "{% macro m() %}{{ varargs }}{{ kwargs }}{{ varargs|length }}{% endmacro %}{{ m(1, a=2) }}" },
    {
      template:
        "{% macro m(a) %}[{{ caller(a) }}]{% endmacro %}{% call(v) m(5) %}<{{ v }}>{% endcall %}|{% macro w() %}{{ caller() }}{{ caller() }}{% endmacro %}{% call w() %}c{% endcall %}",
    },
    { template: "{% macro m() %}x{% endmacro %}{{ m }}|{{ m|string }}" },
    { template: "{% call x.y() %}{% endcall %}" },
    { template: "{% macro m(p, q=1.5e-5) %}{% endmacro %}ok" },
    { template: "{% macro m(p, q=1.5e-5) %}{% endmacro %}{{ m(1) }}" },
  ],
  globals: [
    { template: "{{ raise_exception('bad') }}" },
    { template: "{{ range(3)|join }} {{ range(5, 1, -2)|join }} {{ range(0)|length }}" },
    { template: "{{ range(0, 3, 0) }}" },
    { template: "{{ range(1.5) }}" },
    { template: "{{ dict(a=1) }}" },
    { template: "{{ namespace(1) }}" },
    { template: "{{ strftime_now() }}" },
    { template: "{{ strftime_now('') }}" },
    { template: "{{ strftime_now('%Q') }}|{{ strftime_now('" + "x".repeat(99) + "')|length }}" },
    { template: "{{ strftime_now('" + "x".repeat(100) + "') }}" },
    { template: "{{ lipsum }}|{{ cycler }}|{{ joiner }}|{{ namespace }}" },
  ],
  syntax: [
    { template: "{{ x is sameas 'a' }}" },
    { template: "{{ '\\x41' }}" },
    { template: "{{ 0x1F }}" },
    { template: "{{ 1_000 }}" },
    { template: "{{ [1e3, 2] }}" },
    { template: "{{ 1, 2 }}" },
    { template: "{% for x in 1, 2 %}{% endfor %}" },
    { template: "{{ (1,) }}" },
    { template: "{{ x[1, 2] }}" },
    { template: "{{ x[] }}|{{ [1 2]|join }}|{{ x[1 2] }}", context: { x: [5, 6, 7] } },
    { template: "{{ {} + 1 }}" },
    { template: "{%+ if true %}{% endif %}" },
    { template: "{% if true +%}{% endif %}" },
    { template: "{{ f(**k) }}" },
    { template: "{{ f(*k) }}" },
    { template: "{{ é }}" },
    { template: "{{ x|a.b }}" },
    { template: "{{ x is defined|string }}" },
    { template: "{% if x %}" },
    { template: "{{ 'unterminated }}" },
    { template: "{# unterminated" },
    { template: "{% endif %}" },
  ],
};
