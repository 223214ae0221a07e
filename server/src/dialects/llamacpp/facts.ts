// What llama.cpp v0.5.0's engine does differently from Jinja2, in words, for the diagnostics: each
// fact names a construct, whether the engine throws there or renders other bytes, the cause as a
// user should read it, and a sample template that shows it (facts.test.ts renders every sample in
// our jinja2 and llamacpp dialects and in the real engine, so no fact here is a guess).
export interface EngineFact {
  kind: "syntax" | "filter" | "test" | "method" | "global" | "value" | "statement";
  /** The filter, test, method or global name; for syntax/value/statement a short label. */
  name: string;
  effect: "throws" | "differs";
  cause: string;
  sample: { template: string; context?: Record<string, unknown> };
}

const fact = (kind: EngineFact["kind"], name: string, effect: EngineFact["effect"], cause: string, template: string, context?: Record<string, unknown>): EngineFact => ({
  kind, name, effect, cause, sample: context ? { template, context } : { template },
});

const missingFilter = (name: string, template: string, context?: Record<string, unknown>) =>
  fact("filter", name, "throws", `llama.cpp has no '${name}' filter ("Unknown (built-in) filter")`, template, context);
const missingMethod = (name: string, template: string) =>
  fact("method", name, "throws", `strings have no '${name}' method in llama.cpp (the call gets an Undefined: "Callee is not a function")`, template);

export const LLAMACPP_FACTS: readonly EngineFact[] = [
  // ---------------------------------------------------------------- syntax the parser rejects
  fact("syntax", "**", "throws", "llama.cpp has no `**` operator: the template does not compile", "{{ 2 ** 3 }}"),
  fact("syntax", "//", "throws", "llama.cpp has no `//` operator: the template does not compile", "{{ 7 // 2 }}"),
  fact("syntax", "recursive", "throws", "llama.cpp has no recursive loops: the template does not compile", "{% for x in [1] recursive %}{{ x }}{% endfor %}"),
  fact("syntax", "raw", "throws", "llama.cpp has no {% raw %}: the template does not compile", "{% raw %}x{% endraw %}"),
  fact("syntax", "with", "throws", "llama.cpp has no {% with %}: the template does not compile", "{% with a = 1 %}{{ a }}{% endwith %}"),
  fact("syntax", "test argument without parentheses", "throws", "llama.cpp takes a test's argument only in parentheses (`is divisibleby(3)`): the template does not compile", "{{ 6 is divisibleby 3 }}"),
  fact("syntax", "filter chain in {% filter %}", "throws", "llama.cpp's {% filter %} takes one filter: the template does not compile", "{% filter upper | trim %}a{% endfilter %}"),
  fact("syntax", "tuple without parentheses", "throws", "llama.cpp needs parentheses around a tuple outside `set`: the template does not compile", "{{ 1, 2 }}"),
  fact("syntax", "one-item tuple", "throws", "llama.cpp has no `(x,)` tuple: the template does not compile", "{{ (1,) }}"),
  fact("syntax", "string escape", "throws", "llama.cpp knows only \\n \\t \\r \\b \\f \\v \\\\ \\' \\\" in strings: the template does not compile", "{{ '\\x41' }}"),
  fact("syntax", "number spelling", "throws", "llama.cpp reads only decimal digits: `1e3`, `0x1F`, `1_000` do not compile", "{{ 1e3 }}"),
  fact("syntax", "big integer", "throws", "llama.cpp's integers are 64-bit: a larger literal does not compile", "{{ 99999999999999999999 }}"),
  fact("syntax", "+ sign", "throws", "llama.cpp has no `{%+`/`+%}`: the template does not compile", "{%+ if true %}x{% endif %}"),
  fact("syntax", "filter after a test", "throws", "in llama.cpp a test binds looser than a filter, so `x is t | f` does not compile", "{{ 1 is odd | string }}"),
  // ---------------------------------------------------------------- statements and operators
  fact("statement", "percent format", "throws", "llama.cpp has no `%` string formatting (\"Unknown operator\")", "{{ '%s' % 1 }}"),
  fact("statement", "for over a string", "throws", "llama.cpp cannot loop over a string", "{% for c in 'ab' %}{{ c }}{% endfor %}"),
  fact("statement", "for over None", "throws", "llama.cpp cannot loop over None", "{% for x in v %}{{ x }}{% endfor %}", { v: null }),
  fact("statement", "'x' in None", "throws", "`in` on None throws in llama.cpp (a probe that passes tools=[null] trips on it)", "{{ 'function' in v }}", { v: null }),
  fact("statement", "undefined in a list", "throws", "an undefined left operand of `in` throws in llama.cpp", "{{ missing in [1] }}"),
  fact("statement", "string comparison", "throws", "llama.cpp compares only numbers with < > <= >=", "{{ 'b' > 'a' }}"),
  fact("statement", "number ~ number", "throws", "llama.cpp's `~` needs a string on one side", "{{ 1 ~ 2 }}"),
  fact("statement", "chained comparison", "differs", "llama.cpp does not chain comparisons: `a < b < c` is `(a < b) < c`", "{{ 3 > 2 == 1 }}"),
  fact("statement", "set in a loop", "differs", "llama.cpp runs every iteration in one scope: a `set` in one iteration is seen by the next", "{% for x in [1, 2] %}{% if x == 1 %}{% set a = 5 %}{% endif %}{{ a }}{% endfor %}"),
  fact("statement", "macro scope", "differs", "a llama.cpp macro sees the variables of its caller, not of where it was defined", "{% macro m() %}{{ g }}{% endmacro %}{% for g in [7] %}{{ m() }}{% endfor %}"),
  fact("statement", "macro keyword arguments", "differs", "llama.cpp counts keyword arguments as positions: with `m(a, b=2)`, `m(b=3)` leaves a undefined and b at 2", "{% macro m(a, b=2) %}{{ a }}-{{ b }}{% endmacro %}{{ m(b=3) }}"),
  fact("statement", "varargs", "differs", "llama.cpp macros have no varargs/kwargs", "{% macro m() %}{{ varargs | length }}{% endmacro %}{{ m(1, 2) }}"),
  fact("statement", "whitespace before a tag at the start", "differs", "llama.cpp drops a template's one-byte first character when a {% or {# follows it", "a{% if true %}b{% endif %}"),
  // ---------------------------------------------------------------- how values print
  fact("value", "None", "differs", "None prints as '' in llama.cpp, 'None' in Jinja2", "[{{ v }}]", { v: null }),
  fact("value", "list", "differs", "a list prints its items run together in llama.cpp (['a', 1] prints 'a1')", "{{ ['a', 1] }}"),
  fact("value", "dict", "differs", "a dict prints as '' in llama.cpp", "{{ {'a': 1} }}"),
  fact("value", "float", "differs", "llama.cpp prints floats with at most 6 decimals (0.1 + 0.2 is '0.3')", "{{ 0.1 + 0.2 }}"),
  fact("value", "string length", "differs", "llama.cpp counts bytes: 'é'|length is 2", "{{ 'é' | length }}"),
  fact("value", "tojson float", "differs", "llama.cpp's tojson writes 6 significant digits (1.0 as 1)", "{{ 1.0 | tojson }}"),
  // ---------------------------------------------------------------- filters
  missingFilter("attr", "{{ {'a': 1} | attr('a') }}"),
  missingFilter("batch", "{{ [1, 2] | batch(1) | list }}"),
  missingFilter("center", "{{ 'a' | center(5) }}"),
  missingFilter("escape", "{{ '<a>' | escape }}"),
  missingFilter("e", "{{ '<a>' | e }}"),
  missingFilter("filesizeformat", "{{ 1000 | filesizeformat }}"),
  missingFilter("forceescape", "{{ 'a' | forceescape }}"),
  missingFilter("groupby", "{{ [{'k': 1}] | groupby('k') | list }}"),
  missingFilter("pprint", "{{ 1 | pprint }}"),
  missingFilter("round", "{{ 2.5 | round }}"),
  missingFilter("striptags", "{{ '<b>a</b>' | striptags }}"),
  missingFilter("sum", "{{ [1, 2] | sum }}"),
  missingFilter("truncate", "{{ 'abcdef' | truncate(3) }}"),
  missingFilter("urlencode", "{{ 'a b' | urlencode }}"),
  missingFilter("wordcount", "{{ 'a b' | wordcount }}"),
  missingFilter("xmlattr", "{{ {'a': 1} | xmlattr }}"),
  fact("filter", "unique", "throws", "llama.cpp's `unique` is not implemented (NotImplemented)", "{{ [1, 1] | unique | list }}"),
  fact("filter", "map", "throws", "llama.cpp's `map` only maps attributes (`map(attribute=…)`); `map('upper')` throws", "{{ ['a'] | map('upper') | list }}"),
  fact("filter", "select", "throws", "llama.cpp's `select('odd')` reads 'odd' as an attribute of object items; a test needs an argument (`select('gt', 1)`)", "{{ [1, 2] | select('odd') | list }}"),
  fact("filter", "selectattr", "throws", "llama.cpp's two-argument `selectattr('a', 'defined')` reads 'a' as the test name", "{{ [{'a': 1}] | selectattr('a', 'defined') | list }}"),
  fact("filter", "items", "throws", "llama.cpp's `items` only takes a dict (a JSON-string argument throws)", "{{ v | items }}", { v: "{}" }),
  fact("filter", "length", "throws", "llama.cpp has no length of None", "{{ v | length }}", { v: null }),
  fact("filter", "reverse", "throws", "llama.cpp reverses only lists", "{{ 'ab' | reverse }}"),
  fact("filter", "first", "throws", "llama.cpp's `first`/`last` only take a list", "{{ 'ab' | first }}"),
  fact("filter", "default", "throws", "llama.cpp's `default` needs its argument, and dicts have none", "{{ 'a' | default }}"),
  fact("filter", "join", "throws", "llama.cpp joins only strings and numbers", "{{ [none] | join }}"),
  fact("filter", "replace", "throws", "llama.cpp's `replace` has no count argument", "{{ 'aa' | replace('a', 'b', 1) }}"),
  fact("filter", "slice", "throws", "llama.cpp's `slice` filter fails unless given start, stop and step", "{{ [1, 2, 3] | slice(2) | list }}"),
  fact("filter", "max", "throws", "llama.cpp's `min`/`max` have no `attribute`", "{{ [{'a': 1}] | max(attribute='a') }}"),
  fact("filter", "tojson", "throws", "llama.cpp's tojson has no sort_keys", "{{ {} | tojson(sort_keys=true) }}"),
  fact("filter", "string", "differs", "llama.cpp's `string` writes numbers as JSON (%g) and lists Python-like", "{{ 12345678.5 | string }}"),
  fact("filter", "title", "differs", "llama.cpp's `title` capitalises only after whitespace (and only ASCII)", "{{ 'a-b' | title }}"),
  fact("filter", "capitalize", "differs", "llama.cpp's `capitalize` changes only ASCII letters", "{{ 'éa' | capitalize }}"),
  fact("filter", "upper", "differs", "llama.cpp's `upper`/`lower` change only ASCII letters", "{{ 'é' | upper }}"),
  fact("filter", "trim", "differs", "llama.cpp trims only ASCII whitespace", "[{{ '\u00a0a' | trim }}]"),
  fact("filter", "indent", "differs", "llama.cpp's `indent` drops a leading empty line", "{{ '\\na' | indent(2) }}"),
  fact("filter", "int", "differs", "llama.cpp's `int` reads a 32-bit integer prefix ('12abc' is 12)", "{{ '12abc' | int }}"),
  // ---------------------------------------------------------------- tests
  fact("test", "le", "throws", "llama.cpp has no `le` test", "{{ 1 is le(2) }}"),
  fact("test", "sameas", "throws", "llama.cpp's `sameas` is not implemented", "{{ 1 is sameas(1) }}"),
  fact("test", "escaped", "throws", "llama.cpp's `escaped` is not implemented", "{{ 'a' is escaped }}"),
  fact("test", "filter", "throws", "llama.cpp's `filter` test is not implemented", "{{ 'upper' is filter }}"),
  fact("test", "odd", "throws", "llama.cpp's `odd`/`even` take only integers", "{{ true is odd }}"),
  fact("test", "lower", "throws", "llama.cpp's `lower`/`upper` tests take only strings", "{{ 1 is lower }}"),
  fact("test", "number", "differs", "llama.cpp's `number` excludes booleans", "{{ true is number }}"),
  fact("test", "iterable", "differs", "llama.cpp's `iterable`/`sequence` are false for a dict", "{{ {} is iterable }}"),
  fact("test", "eq", "differs", "llama.cpp's comparison tests say None is not None (`none is eq(none)` is False)", "{{ none is eq(none) }}"),
  // ---------------------------------------------------------------- methods
  missingMethod("find", "{{ 'abc'.find('b') }}"),
  missingMethod("count", "{{ 'abc'.count('b') }}"),
  missingMethod("splitlines", "{{ 'a'.splitlines() }}"),
  missingMethod("isdigit", "{{ '1'.isdigit() }}"),
  missingMethod("partition", "{{ 'a b'.partition(' ') }}"),
  missingMethod("removeprefix", "{{ 'ab'.removeprefix('a') }}"),
  missingMethod("zfill", "{{ '1'.zfill(3) }}"),
  missingMethod("center", "{{ 'a'.center(3) }}"),
  fact("method", "join", "throws", "llama.cpp's str.join is not implemented", "{{ ','.join(['a']) }}"),
  fact("method", "format", "throws", "llama.cpp's str.format knows only bare {}", "{{ '{0}'.format(1) }}"),
  fact("method", "startswith", "throws", "llama.cpp's startswith/endswith take one string, not a tuple", "{{ 'ab'.startswith(('a', 'b')) }}"),
  fact("method", "split", "differs", "llama.cpp's split() without a separator splits on single spaces", "{{ ' a  b '.split() | length }}"),
  // ---------------------------------------------------------------- globals
  fact("global", "dict", "throws", "llama.cpp has no dict()", "{{ dict(a=1) }}"),
  fact("global", "cycler", "differs", "llama.cpp has no cycler, joiner or lipsum (an Undefined that prints nothing)", "{{ cycler }}"),
  fact("global", "loop.cycle", "throws", "llama.cpp's loop has no cycle(), changed(), depth", "{% for x in [1] %}{{ loop.cycle('a', 'b') }}{% endfor %}"),
];
