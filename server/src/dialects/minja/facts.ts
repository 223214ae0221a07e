// What google/minja 021c229 does differently from Jinja2, in words, for the diagnostics (issue 4):
// each fact names a construct, whether minja throws there or renders other bytes, the cause as a
// user should read it, and a sample that shows it (minja.facts.test.ts renders every sample in our
// jinja2 and minja dialects). The evidence for each is in docs/dialects/minja-021c229.md.
import type { EngineFact } from "../llamacpp/facts";

const fact = (kind: EngineFact["kind"], name: string, effect: EngineFact["effect"], cause: string, template: string, context?: Record<string, unknown>): EngineFact => ({
  kind, name, effect, cause, sample: context ? { template, context } : { template },
});

const noParse = (name: string, why: string, template: string) => fact("syntax", name, "throws", `minja cannot parse ${why}, so no render of the template works`, template);
const missingFilter = (name: string, template: string) =>
  fact("filter", name, "throws", `minja has no '${name}' filter (filters are context functions there: "Value is not callable: null")`, template);
const missingTest = (name: string, template: string) => fact("test", name, "throws", `minja knows 12 tests, not '${name}' ("Unknown type for 'is' operator")`, template);
const missingMethod = (name: string, template: string) => fact("method", name, "throws", `minja has no '${name}' method ("Unknown method: ${name.split(".").pop()}")`, template);

export const MINJA_FACTS: readonly EngineFact[] = [
  // ---------------------------------------------------------------- syntax its parser refuses
  noParse("x.0", "`x.0` (write `x[0]`)", "{{ m.content.0.type }}"),
  noParse("call then attribute", "`.name`, `[i]` or a call after a plain call (`f(x).y`; write `(f(x)).y` or use `set`)", "{{ range(3)[0] }}"),
  noParse("test argument", "a test with an argument (`is divisibleby(3)`, `is sameas x`)", "{{ 6 is divisibleby(3) }}"),
  noParse("tuple without parentheses", "a tuple without parentheses (`set a, b = 1, 2`)", "{% set a, b = 1, 2 %}{{ a }}"),
  noParse("adjacent strings", "adjacent string literals (`'a' 'b'`)", "{{ 'a' 'b' }}"),
  noParse("raw", "`{% raw %}`", "{% raw %}x{% endraw %}"),
  noParse("with", "`{% with %}`", "{% with a = 1 %}{{ a }}{% endwith %}"),
  noParse("call with parameters", "`{% call(x) m() %}`", "{% macro m() %}{{ caller(1) }}{% endmacro %}{% call(x) m() %}{{ x }}{% endcall %}"),
  noParse("set block with a filter", "`{% set x | f %}`", "{% set x | upper %}a{% endset %}{{ x }}"),
  noParse("+ sign", "`{%+` or `+%}`", "{%+ if true %}x{% endif %}"),
  noParse("number spelling", "`1_000`, `0x1f` or `1e+3`", "{{ 1_000 }}"),
  // ---------------------------------------------------------------- statements and operators
  fact("statement", "percent format", "throws", "minja has no `%` string formatting (a type error)", "{{ '%s' % 1 }}"),
  fact("statement", "integer division", "differs", "minja's `/` between integers divides as C++ does: `3 / 2` is 1", "{{ 3 / 2 }}"),
  fact("statement", "power", "differs", "minja's `**` is always a float: `2 ** 3` is 8.0", "{{ 2 ** 3 }}"),
  fact("statement", "and", "differs", "minja's `and` gives True/False, not an operand", "{{ 'a' and 'b' }}"),
  fact("statement", "empty dict", "differs", "every dict is true in minja, even `{}`", "{% if {} %}yes{% endif %}"),
  fact("statement", "falsy items", "differs", "minja's `in` and `==` never match a falsy list item (`0 in [0]` is False)", "{{ 0 in [0] }}"),
  fact("statement", "loop variable after the loop", "differs", "minja leaves a for loop's variable set to the last item after the loop", "{% for m in [1, 2] %}{% endfor %}{{ m }}"),
  fact("statement", "set in a loop", "differs", "minja runs every iteration in one scope: a `set` in one iteration is seen by the next", "{% for x in [1, 2] %}{{ a }}{% set a = x %}{% endfor %}"),
  fact("statement", "undefined in a string", "differs", "minja turns an undefined variable into 'None' when concatenating (Jinja2: '')", "{{ 'A:' ~ missing }}"),
  fact("statement", "varargs", "throws", "minja macros have no varargs/kwargs: extra arguments are an error", "{% macro m() %}{{ varargs | length }}{% endmacro %}{{ m(1, 2) }}"),
  fact("statement", "lstrip before {{", "differs", "minja's lstrip_blocks also strips the indentation before `{{`", "a\n  {{ 'x' }}"),
  fact("statement", "CRLF", "differs", "minja keeps \\r\\n newlines as written (Jinja2 writes \\n)", "a\r\nb"),
  // ---------------------------------------------------------------- how values print
  fact("value", "None", "differs", "None and undefined are the same to minja: None prints as '' ('None' in Jinja2)", "[{{ v }}]", { v: null }),
  fact("value", "None in a list", "differs", "minja prints None inside a list as null", "{{ [none] }}"),
  fact("value", "float in a string", "differs", "minja turns floats into strings with 6 decimals (`'x' ~ 2.5` is 'x2.500000')", "{{ 'x' ~ 2.5 }}"),
  fact("value", "string length", "differs", "minja counts bytes: 'é'|length is 2", "{{ 'é' | length }}"),
  fact("value", "string index", "differs", "minja cannot index a string: 'abc'[0] is empty", "[{{ 'abc'[0] }}]"),
  // ---------------------------------------------------------------- filters
  missingFilter("abs", "{{ -1 | abs }}"),
  missingFilter("attr", "{{ {'a': 1} | attr('a') }}"),
  missingFilter("batch", "{{ [1, 2] | batch(1) | list }}"),
  missingFilter("capitalize", "{{ 'a' | capitalize }}"),
  missingFilter("center", "{{ 'a' | center(5) }}"),
  missingFilter("d", "{{ v | d('x') }}"),
  missingFilter("filesizeformat", "{{ 1000 | filesizeformat }}"),
  missingFilter("first", "{{ [1] | first }}"),
  missingFilter("float", "{{ '1.5' | float }}"),
  missingFilter("forceescape", "{{ 'a' | forceescape }}"),
  missingFilter("format", "{{ '%s' | format(1) }}"),
  missingFilter("groupby", "{{ [{'k': 1}] | groupby('k') | list }}"),
  missingFilter("max", "{{ [1, 2] | max }}"),
  missingFilter("min", "{{ [1, 2] | min }}"),
  missingFilter("pprint", "{{ 1 | pprint }}"),
  missingFilter("replace", "{{ 'a' | replace('a', 'b') }}"),
  missingFilter("reverse", "{{ [1, 2] | reverse | list }}"),
  missingFilter("round", "{{ 2.5 | round }}"),
  missingFilter("slice", "{{ [1, 2] | slice(1) | list }}"),
  missingFilter("sort", "{{ [2, 1] | sort }}"),
  missingFilter("striptags", "{{ '<b>a</b>' | striptags }}"),
  missingFilter("sum", "{{ [1, 2] | sum }}"),
  missingFilter("title", "{{ 'a b' | title }}"),
  missingFilter("truncate", "{{ 'abcdef' | truncate(3) }}"),
  missingFilter("urlencode", "{{ 'a b' | urlencode }}"),
  missingFilter("urlize", "{{ 'x' | urlize }}"),
  missingFilter("wordcount", "{{ 'a b' | wordcount }}"),
  missingFilter("wordwrap", "{{ 'a b' | wordwrap(1) }}"),
  missingFilter("xmlattr", "{{ {'a': 1} | xmlattr }}"),
  fact("filter", "tojson", "throws", "minja's tojson takes only `indent`: ensure_ascii, sort_keys, separators are errors", "{{ 'a' | tojson(ensure_ascii=False) }}"),
  fact("filter", "join", "throws", "minja joins only lists (a string is an error)", "{{ 'ab' | join(',') }}"),
  fact("filter", "list", "throws", "minja's `list` takes only a list", "{{ {'a': 1} | list }}"),
  fact("filter", "select", "throws", "minja's `select`/`reject` take a filter name, not a test name ('odd' is no filter there)", "{{ [1, 2] | select('odd') | list }}"),
  fact("filter", "selectattr", "differs", "minja's `selectattr(attr)` without a test returns the attribute values, unfiltered", "{{ v | selectattr('a') | list }}", { v: [{ a: 1 }, { a: 0 }] }),
  fact("filter", "default", "differs", "minja's `default` also replaces None", "{{ v | default('x') }}", { v: null }),
  fact("filter", "indent", "differs", "minja's `indent` indents by 0 by default and indents blank lines", "{{ 'a\\nb' | indent }}"),
  fact("filter", "trim", "differs", "minja trims only ASCII spaces, tabs and newlines", "[{{ '\u00a0a' | trim }}]"),
  fact("filter", "upper", "differs", "minja's `upper`/`lower` change only ASCII letters", "{{ 'é' | upper }}"),
  fact("filter", "escape", "differs", "minja escapes ' as &apos; (Jinja2: &#39;)", "{{ \"'\" | e }}"),
  fact("filter", "string", "differs", "minja's `string` writes floats with 6 decimals", "{{ 2.5 | string }}"),
  fact("filter", "int", "differs", "minja's `int` reads the integer prefix of a string ('12abc' is 12, Jinja2: 0)", "{{ '12abc' | int }}"),
  // ---------------------------------------------------------------- tests
  missingTest("undefined", "{{ v is undefined }}"),
  missingTest("callable", "{{ v is callable }}"),
  missingTest("odd", "{{ 1 is odd }}"),
  missingTest("even", "{{ 1 is even }}"),
  missingTest("lower", "{{ 'a' is lower }}"),
  missingTest("upper", "{{ 'A' is upper }}"),
  missingTest("escaped", "{{ 'a' is escaped }}"),
  missingTest("filter", "{{ 'upper' is filter }}"),
  missingTest("test", "{{ 'odd' is test }}"),
  fact("test", "defined", "differs", "minja has no undefined: a variable holding None is not defined", "{{ v is defined }}", { v: null }),
  fact("test", "false", "differs", "minja's `true`/`false` test truthiness: `0 is false` is True", "{{ 0 is false }}"),
  fact("test", "sequence", "differs", "minja's `sequence` is lists only (not strings or dicts)", "{{ 'ab' is sequence }}"),
  // ---------------------------------------------------------------- methods
  missingMethod("str.format", "{{ '{}'.format(1) }}"),
  missingMethod("str.find", "{{ 'abc'.find('b') }}"),
  missingMethod("str.count", "{{ 'abc'.count('b') }}"),
  missingMethod("str.join", "{{ ','.join(['a']) }}"),
  missingMethod("str.rsplit", "{{ 'a b'.rsplit(' ') }}"),
  missingMethod("str.splitlines", "{{ 'a'.splitlines() }}"),
  missingMethod("str.removeprefix", "{{ 'ab'.removeprefix('a') }}"),
  missingMethod("str.isdigit", "{{ '1'.isdigit() }}"),
  missingMethod("dict.values", "{{ {'a': 1}.values() | list }}"),
  missingMethod("list.index", "{{ [1].index(1) }}"),
  fact("method", "str.split", "throws", "minja's split needs exactly one separator (no maxsplit, no default)", "{{ 'a b'.split() }}"),
  fact("method", "str.capitalize", "differs", "minja's capitalize upper-cases the first letter only and leaves the rest", "{{ 'hELLO'.capitalize() }}"),
  // ---------------------------------------------------------------- globals
  fact("global", "dict", "throws", "minja has no dict() (calling the missing name fails)", "{{ dict(a=1) }}"),
  fact("global", "cycler", "throws", "minja has no cycler or lipsum", "{{ cycler('a').next() }}"),
  fact("global", "range", "differs", "minja's range() is a list: printing it shows the items", "{{ range(2) }}"),
];
