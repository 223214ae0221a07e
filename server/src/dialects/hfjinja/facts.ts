// What @huggingface/jinja 0.5.13 does differently from Jinja2, in words, for the diagnostics (issue 4):
// each fact names a construct, whether the engine throws there or renders other bytes, the cause as a
// user should read it, and a sample (hfjinja.facts.test.ts renders every sample in the real package
// and in our jinja2 and hfjinja dialects, so no fact here is a guess).
import { fact, type EngineFact } from "../engineFact";

const noParse = (name: string, why: string, template: string) => fact("syntax", name, "throws", `@huggingface/jinja cannot parse ${why}, so no render of the template works`, template);
const missingFilter = (name: string, template: string) => fact("filter", name, "throws", `@huggingface/jinja has no '${name}' filter for this type`, template);
const missingMethod = (name: string, template: string) =>
  fact("method", name, "throws", `@huggingface/jinja has no '${name}' method (the call gets an undefined: "Cannot call something that is not a function")`, template);

export const HFJINJA_FACTS: readonly EngineFact[] = [
  // ---------------------------------------------------------------- syntax its parser refuses
  noParse("raw", "`{% raw %}`", "{% raw %}x{% endraw %}"),
  noParse("with", "`{% with %}`", "{% with a = 1 %}{{ a }}{% endwith %}"),
  noParse("recursive", "recursive loops", "{% for x in [1] recursive %}{{ x }}{% endfor %}"),
  noParse("test argument", "a test with an argument (`is divisibleby(3)`)", "{{ 6 is divisibleby(3) }}"),
  noParse("number spelling", "`1e3`, `1_000` or `0x1f`", "{{ 1e3 }}"),
  noParse("tuple without parentheses", "a tuple outside `set` without parentheses", "{{ 1, 2 }}"),
  noParse("+ sign", "`{%+` or `+%}`", "{%+ if true %}x{% endif %}"),
  noParse("string escape", "escapes other than \\n \\t \\r \\b \\f \\v \\' \\\" \\\\ \\x \\u", "{{ '\\d' }}"),
  noParse("filter chain in {% filter %}", "a filter chain in `{% filter %}`", "{% filter upper | trim %}a{% endfilter %}"),
  // ---------------------------------------------------------------- statements and operators
  fact("statement", "percent format", "throws", "@huggingface/jinja has no `%` string formatting", "{{ '%s' % 1 }}"),
  fact("statement", "string comparison", "throws", "@huggingface/jinja compares only numbers with < > <= >=", "{{ 'b' > 'a' }}"),
  fact("statement", "None in an operation", "throws", "any operation on None fails in @huggingface/jinja, even `'a' ~ none`", "{{ 'a' ~ v }}", { v: null }),
  fact("statement", "undefined in an operation", "throws", "`+` and the other operators fail on an undefined variable (`~` does not)", "{{ 'a' + missing }}"),
  fact("statement", "for over a string", "throws", "@huggingface/jinja cannot loop over a string", "{% for c in 'ab' %}{{ c }}{% endfor %}"),
  fact("statement", "for over None", "throws", "@huggingface/jinja cannot loop over None or an undefined variable", "{% for x in v %}{{ x }}{% endfor %}", { v: null }),
  fact("statement", "string repetition", "throws", "@huggingface/jinja has no `str * int`", "{{ '-' * 3 }}"),
  fact("statement", "equality", "differs", "@huggingface/jinja compares with JavaScript's `==`: `'1' == 1` and `1 == true` are true, two equal lists are not", "{{ '1' == 1 }}"),
  fact("statement", "break and continue", "differs", "@huggingface/jinja loses the output of an iteration that ends in break/continue", "{% for x in [1, 2] %}a{% if x == 1 %}{% continue %}{% endif %}b{% endfor %}"),
  fact("statement", "set in a loop", "differs", "@huggingface/jinja runs every iteration in one scope: a `set` in one iteration is seen by the next", "{% for x in [1, 2] %}{{ a }}{% set a = x %}{% endfor %}"),
  fact("statement", "set inside {% filter %}", "differs", "a `set` inside `{% filter %}` or a block `set` stays visible after it", "{% filter upper %}{% set y = 'v' %}{% endfilter %}{{ y }}"),
  // ---------------------------------------------------------------- how values print
  fact("value", "booleans", "differs", "@huggingface/jinja prints true/false (Jinja2: True/False)", "{{ v }}", { v: true }),
  fact("value", "None", "differs", "None prints as '' in @huggingface/jinja", "[{{ v }}]", { v: null }),
  fact("value", "list", "differs", "lists and dicts print as JSON in @huggingface/jinja ([1, \"a\", null])", "{{ [1, 'a', none] }}"),
  fact("value", "tuple", "throws", "@huggingface/jinja cannot print a tuple", "{{ (1, 2) }}"),
  fact("value", "float in a string", "differs", "`~` writes a float's JavaScript form (`'x' ~ 1.0` is 'x1')", "{{ 'x' ~ 1.0 }}"),
  fact("value", "astral string length", "differs", "@huggingface/jinja counts UTF-16 units: '😀'|length is 2", "{{ '😀' | length }}"),
  // ---------------------------------------------------------------- filters
  missingFilter("escape", "{{ '<a>' | escape }}"),
  missingFilter("e", "{{ '<a>' | e }}"),
  missingFilter("select", "{{ [1, 2] | select('odd') | list }}"),
  missingFilter("reject", "{{ [1, 2] | reject('odd') | list }}"),
  missingFilter("groupby", "{{ [{'k': 1}] | groupby('k') | list }}"),
  missingFilter("batch", "{{ [1, 2] | batch(1) | list }}"),
  missingFilter("max", "{{ [1, 2] | max }}"),
  missingFilter("min", "{{ [1, 2] | min }}"),
  missingFilter("sum", "{{ [1, 2] | sum }}"),
  missingFilter("round", "{{ 2.5 | round }}"),
  missingFilter("attr", "{{ {'a': 1} | attr('a') }}"),
  missingFilter("wordcount", "{{ 'a b' | wordcount }}"),
  missingFilter("center", "{{ 'a' | center(5) }}"),
  missingFilter("truncate", "{{ 'abcdef' | truncate(3) }}"),
  missingFilter("count", "{{ [1] | count }}"),
  missingFilter("d", "{{ v | d('x') }}"),
  missingFilter("format", "{{ '%s' | format(1) }}"),
  missingFilter("striptags", "{{ '<b>a</b>' | striptags }}"),
  missingFilter("urlencode", "{{ 'a b' | urlencode }}"),
  missingFilter("xmlattr", "{{ {'a': 1} | xmlattr }}"),
  missingFilter("reverse", "{{ 'ab' | reverse }}"),
  missingFilter("list", "{{ 'ab' | list }}"),
  fact("filter", "length()", "throws", "@huggingface/jinja knows `length`, `first`, `upper` … only without parentheses: `x | length()` fails", "{{ [1] | length() }}"),
  fact("filter", "default", "throws", "@huggingface/jinja's `default` needs parentheses (`x | default`) fails", "{{ v | default }}", { v: 1 }),
  fact("filter", "selectattr", "throws", "@huggingface/jinja's selectattr/rejectattr take string literals only (`selectattr('a', 'equalto', 1)` fails)", "{{ v | selectattr('a', 'equalto', 1) | list }}", { v: [{ a: 1 }] }),
  fact("filter", "map", "throws", "@huggingface/jinja's map only maps attributes (`map('upper')` fails)", "{{ ['a'] | map('upper') | list }}"),
  fact("filter", "first", "throws", "`first`/`last` of an empty list crash @huggingface/jinja", "{{ [] | first }}"),
  fact("filter", "default of None", "differs", "@huggingface/jinja's `default` keeps None (it replaces only undefined)", "[{{ v | default('x') }}]", { v: null }),
  fact("filter", "title", "differs", "@huggingface/jinja's `title` capitalises after every non-letter (`hello-world` → `Hello-World`, `éa` → `éA`)", "{{ 'éa' | title }}"),
  fact("filter", "capitalize", "differs", "@huggingface/jinja's `capitalize` leaves the rest as is", "{{ 'hELLO' | capitalize }}"),
  fact("filter", "tojson of 1.0", "differs", "@huggingface/jinja's tojson writes 1.0 as 1", "{{ 1.0 | tojson }}"),
  fact("filter", "string of True", "differs", "@huggingface/jinja's `string` of a boolean is 'true'", "{{ true | string }}"),
  fact("filter", "join", "differs", "@huggingface/jinja's `join` writes None as '' and floats in JavaScript form", "{{ [1.0, 'a'] | join(',') }}"),
  // ---------------------------------------------------------------- tests
  fact("test", "divisibleby", "throws", "@huggingface/jinja's tests take no arguments", "{{ 4 is divisibleby(2) }}"),
  fact("test", "sameas", "throws", "@huggingface/jinja has no `sameas`, `escaped`, `in`, `ne`, `lt` … tests", "{{ 1 is escaped }}"),
  fact("test", "odd", "throws", "@huggingface/jinja's `odd`/`even` refuse floats", "{{ 1.0 is odd }}"),
  fact("test", "true", "differs", "@huggingface/jinja's `true`/`false` test for the boolean (`1 is true` is false) — as Jinja2, but printed lowercase", "{{ 1 is true }}"),
  fact("test", "iterable", "differs", "@huggingface/jinja's `iterable` is false for a dict", "{{ {} is iterable }}"),
  fact("test", "defined", "differs", "None is defined (printed lowercase)", "{{ v is defined }}", { v: null }),
  // ---------------------------------------------------------------- methods
  missingMethod("format", "{{ '{}'.format(1) }}"),
  missingMethod("find", "{{ 'abc'.find('b') }}"),
  missingMethod("count", "{{ 'abc'.count('b') }}"),
  missingMethod("join", "{{ ','.join(['a']) }}"),
  missingMethod("append", "{% set l = [] %}{{ l.append(1) }}"),
  missingMethod("pop", "{{ [1].pop() }}"),
  missingMethod("splitlines", "{{ 'a'.splitlines() }}"),
  missingMethod("isdigit", "{{ '1'.isdigit() }}"),
  fact("method", "strip(chars)", "differs", "@huggingface/jinja's strip/lstrip/rstrip ignore their argument", "{{ 'xax'.strip('x') }}"),
  // ---------------------------------------------------------------- globals
  fact("global", "dict", "throws", "@huggingface/jinja has no dict(), cycler, joiner or lipsum", "{{ dict(a=1) }}"),
  fact("global", "range", "differs", "@huggingface/jinja's range() is a list: printing it shows the items", "{{ range(2) }}"),
];
