// Hostile chat templates by category (issue 17): sandbox escapes, value bombs, deep nesting, size, known
// crashers of llama.cpp's Jinja engine and constructs that once let a template past the guard. Each is a whole
// template; `trigger` is the user message that sets it off where it needs one (otherwise any request does).
// Other scanners' escape fixtures are read from ../shared/peer-security when it is next to the checkout.
// `limitIn` names the engines that have every construct a value bomb uses, so must stop it with a limit
// error; `parseNesting` marks nesting every parser refuses (syntax/nesting) before anything runs.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

export type HostileCategory = "escape" | "value bomb" | "nesting" | "size" | "crasher" | "guard bypass";

export interface HostileTemplate {
  category: HostileCategory;
  name: string;
  template: string;
  trigger?: string;
  limitIn?: readonly string[];
  parseNesting?: true;
}

const MIN_INT = "(-9223372036854775807 - 1)";
const RECURSIVE_MACRO = "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}";
const HUGE_LOOP = "{% for i in range(10000000000) %}{% endfor %}";
const LOOP_X = "{% for i in [1] %}{% set loop.x = 1 %}{% endfor %}";
/** ChatML around a payload that runs on the message whose content is the trigger. */
const onMessage = (trigger: string, payload: string) =>
  `{% for m in messages %}{% if m.content == '${trigger}' %}${payload}{% endif %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}` +
  "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";
const doubling = (start: string) =>
  `{% set ns = namespace(s=${start}) %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}{% endfor %}{{ ns.s|length }}`;
const deepList = (n: number) => `{% set ns = namespace(l=[]) %}{% for i in range(${n}) %}{% set ns.l = [ns.l] %}{% endfor %}{{ ns.l }}`;

const t = (category: HostileCategory, name: string, template: string, trigger?: string): HostileTemplate => ({
  category,
  name,
  template,
  ...(trigger ? { trigger } : {}),
});

const ALL_ENGINES = ["jinja2", "llamacpp", "minja", "hfjinja"];
const JINJA2 = ["jinja2"];
const NOT_HF = ["jinja2", "llamacpp", "minja"];
const NOT_JINJA2 = ["llamacpp", "minja", "hfjinja"];
/** A value bomb that the engines in `limitIn` must stop with a limit error. */
const bomb = (name: string, template: string, limitIn: readonly string[] = ALL_ENGINES): HostileTemplate => ({
  ...t("value bomb", name, template),
  limitIn,
});
/** Nesting that every parser refuses. */
const deep = (name: string, template: string): HostileTemplate => ({ ...t("nesting", name, template), parseNesting: true });
const nest = (open: string, inner: string, close: string, n: number) => open.repeat(n) + inner + close.repeat(n);
const WIDE = "999999999";
const grown = (step: string, start: string) =>
  `{% set ns = namespace(s=${start}) %}{% for i in range(40) %}{% set ns.s = ${step} %}{% endfor %}{{ ns.s|length }}`;
/** Keeps 1,000 distinct copies of `big` (each within the output limit, all together far past any heap). */
const manyStrings = (big: string) =>
  `{% set kept = namespace(l=[]) %}{% for i in range(1000) %}{% set kept.l = kept.l + [(i ~ ${big})|upper] %}{% endfor %}{{ kept.l|length }}`;
const selfNested = (print: string) =>
  `{% set ns = namespace(s=[1]) %}{% for i in range(40) %}{% set ns.s = [ns.s, ns.s] %}{% endfor %}{{ ${print} }}`;

/** 200,000 one-line macro definitions (7.6 MB): Jinja2 3.1.2's frame analysis once copied every name into every macro's frame. */
const MANY_MACROS = Array.from({ length: 200_000 }, (_, i) => `{% macro m${i}() %}x{% endmacro %}\n`).join("") + "{{ m1() }}";

/**
 * Builtins whose work once grew faster than their input (issue 25): a long digit string's `int` (quadratic
 * BigInt parsing), striptags' lazy regex from every unclosed opening, and the cases the language server once
 * evaluated on its own thread. Each runs once, alone in its process, in the render matrix.
 */
export const SUPERLINEAR_BUILTINS: readonly HostileTemplate[] = [
  t("size", "int of 1,000,000 digits", "{{ ('7' * 1000000)|int|string|length }}"),
  t("size", "int of 1,000,000 digits in base 36", "{{ ('z' * 1000000)|int(base=36) }}"),
  t("size", "int of 16,000,000 digits", "{{ ('1' * 16000000)|int }}"),
  t("size", "striptags of 100,000 unclosed comments", "{{ ('<!--' * 100000)|striptags|length }}"),
  t("size", "striptags of 200,000 unclosed tags", "{{ ('<' * 200000)|striptags|length }}"),
  t("size", "200,000 one-line macros", MANY_MACROS),
];

export const HOSTILE_TEMPLATES: readonly HostileTemplate[] = [
  t("escape", "class mro subclasses", "{{ ''.__class__.__mro__[1].__subclasses__() }}"),
  t("escape", "cycler globals os", "{{ cycler.__init__.__globals__.os.popen('id').read() }}"),
  t("escape", "namespace globals", "{{ namespace.__init__.__globals__['__builtins__']['__import__']('os').popen('id').read() }}"),
  t("escape", "attr filter", "{{ ''|attr('__class__')|attr('__base__') }}"),
  t("escape", "self context", "{{ self._TemplateReference__context }}"),
  t("escape", "lipsum globals", "{{ lipsum.__globals__['os'].popen('id').read() }}"),
  t("escape", "joined dunder", "{% set d = '__' ~ 'class' ~ '__' %}{{ ''[d] }}{{ ''|attr(d) }}"),
  t("escape", "gated on content", onMessage("open sesame", "{{ raise_exception.__globals__ }}"), "open sesame"),

  bomb("list doubled 40 times", doubling("[1]")),
  bomb("string doubled 40 times", doubling("'xx'")),
  bomb("string repeated 10^10 times", "{{ ('x' * 10000000000)|length }}", NOT_HF),
  bomb("list repeated 10^10 times", "{{ ([1] * 10000000000)|length }}", JINJA2),
  bomb("range made a list", "{{ range(100000000)|list|length }}", NOT_JINJA2),
  bomb("tojson indent", "{{ [1, 2]|tojson(indent=10000000000) }}"),
  bomb("indent width", "{{ 'a\nb'|indent(10000000000) }}"),
  bomb("center width", "{{ 'x'|center(10000000000) }}", JINJA2),
  bomb("percent width", "{{ '%999999999s' % 'x' }}", JINJA2),
  bomb(
    "replace grows",
    "{% set ns = namespace(s='x') %}{% for i in range(60) %}{% set ns.s = ns.s|replace('x', 'xx') %}{% endfor %}{{ ns.s|length }}",
    ["jinja2", "llamacpp", "hfjinja"],
  ),
  t("value bomb", "on a request", onMessage("grow", doubling("[1]")), "grow"),
  bomb("string doubled with ~", grown("ns.s ~ ns.s", "'ab'")),
  bomb("empty string doubled with ~", grown("ns.s ~ ns.s", "''"), ["llamacpp"]),
  bomb("list nested in itself, printed", selfNested("ns.s")),
  bomb("list nested in itself, as JSON", selfNested("ns.s|tojson")),
  bomb("replace method grows", grown("ns.s.replace('a', 'aa')", "'ab'")),
  bomb("center method width", `{{ 'x'.center(${WIDE}) }}`, JINJA2),
  bomb("ljust width", `{{ 'x'.ljust(${WIDE}) }}`, JINJA2),
  bomb("rjust width", `{{ 'x'.rjust(${WIDE}) }}`, JINJA2),
  bomb("zfill width", `{{ 'x'.zfill(${WIDE}) }}`, JINJA2),
  bomb("percent left width", `{{ '%-${WIDE}d' % 1 }}`, JINJA2),
  bomb("format filter width", `{{ '%${WIDE}s'|format('x') }}`, JINJA2),
  bomb("str.format width", `{{ '{:${WIDE}}'.format('x') }}`, JINJA2),
  bomb("range sorted", "{{ range(100000000)|sort }}", NOT_JINJA2),
  bomb("batch padded", "{{ [1]|batch(10000000000, 0)|list }}", JINJA2),
  bomb("slice into many", "{{ [1]|slice(1000000000, 0)|list|length }}", JINJA2),
  bomb("join with a long separator", "{{ ('x' * 1000000)|join('y' * 1000000) }}", JINJA2),
  bomb("integer power", "{{ 10 ** 100000000 }}", JINJA2),
  bomb("integer power of a power", "{{ (10 ** 100000) ** 100000 }}", JINJA2),
  bomb("many distinct 16 MB strings", manyStrings("('x' * 16000000)"), NOT_HF),
  bomb(
    "many distinct 8 MB strings grown by ~",
    `{% set ns = namespace(s='x') %}{% for i in range(23) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}${manyStrings("ns.s")}`,
  ),
  bomb(
    "many distinct 16M-item lists",
    "{% set ns = namespace(l=[]) %}{% for i in range(1000) %}{% set ns.l = ns.l + [[i] * 16000000] %}{% endfor %}{{ ns.l|length }}",
    JINJA2,
  ),
  bomb("title over 16M parts", "{{ ('a' * 16000000)|title|length }}", ["llamacpp"]),

  // once a heap exhaustion in our minja (2^63 indices walked); every engine now ends them at once: real llama.cpp
  // renders them (its slices clamp), so no engine has to stop them with a limit
  bomb("slice of a string from -(2^63 - 1)", "{{ 'abc'[-9223372036854775807:] }}", []),
  bomb("slice of a list from -(2^63 - 1)", "{{ [1, 2, 3][-9223372036854775807:] }}", []),
  bomb("slice from the least int64", `{{ 'abc'[${MIN_INT}:] }}{{ [1][${MIN_INT}:] }}`, []),

  deep("10,000 nested ifs", "{% if true %}".repeat(10_000) + "x" + "{% endif %}".repeat(10_000)),
  deep("5,000 nested parentheses", `{{ ${"(".repeat(5000)}1${")".repeat(5000)} }}`),
  deep("10,000 nested lists", `{{ ${"[".repeat(10_000)}${"]".repeat(10_000)} }}`),
  deep("2,000 nested fors", "{% for i in [1] %}".repeat(2000) + "x" + "{% endfor %}".repeat(2000)),
  deep("100,000 nested braces", `{{ ${nest("{'a': ", "1", "}", 100_000)} }}`),
  deep("100,000 unary minuses", `{{ ${"-".repeat(100_000)}1 }}`),
  deep("100,000 nots", `{{ ${"not ".repeat(100_000)}1 }}`),
  deep("100,000 filters", `{{ 1${"|string".repeat(100_000)} }}`),
  deep("100,000 attributes", `{{ a${".b".repeat(100_000)} }}`),
  deep("100,000 calls", `{{ f${"()".repeat(100_000)} }}`),
  deep("100,000 additions", `{{ ${"1 + ".repeat(100_000)}1 }}`),
  deep("100,000 unclosed parentheses", `{{ ${"(".repeat(100_000)} }}`),
  t("nesting", "recursive macro", RECURSIVE_MACRO),
  t("nesting", "list nested 100,000 deep, printed", deepList(100_000)),
  t("nesting", "recursive macro on a request", onMessage("recurse", RECURSIVE_MACRO), "recurse"),

  t("size", "10 MB template", `${"a".repeat(10 * 1024 * 1024)}{{ messages|length }}`),
  t("size", "a billion characters out", "{% for i in range(1000000) %}{{ 'x' * 1000 }}{% endfor %}"),
  t("size", "10^10 steps", HUGE_LOOP),
  t("size", "10^10 steps on a request", onMessage("loop", HUGE_LOOP), "loop"),
  t("size", "1,000,000 output tags", "{{ 1 }}".repeat(1_000_000)),
  t("size", "1,000,000-item list literal", `{{ [${"1,".repeat(1_000_000)}1]|length }}`),
  t(
    "size",
    "a 10 MB string's builtin 100,000 times",
    "{% set big = 'x' * 10000000 %}{% for i in range(100000) %}{% set y = big|upper %}{% endfor %}",
  ),
  ...SUPERLINEAR_BUILTINS,
  t("size", "10 MB string literal", `{{ '${"x".repeat(10 * 1024 * 1024)}'|length }}`),

  t("crasher", "divisibleby(0)", "{{ 4 is divisibleby(0) }}"),
  t("crasher", "divisibleby(-1) of the least integer", `{{ ${MIN_INT} is divisibleby(-1) }}`),
  t("crasher", "select divisibleby 0", "{{ [1, 2]|select('divisibleby', 0)|list }}"),
  t("crasher", "selectattr divisibleby 0", "{{ [{'a': 4}]|selectattr('a', 'divisibleby', 0)|list }}"),
  t("crasher", "divisor from a user message", onMessage("div:0", "{{ 4 is divisibleby(m.content[4:]|int) }}"), "div:0"),
  t("crasher", "list that contains itself, printed", "{% set a = [] %}{% set _ = a.append(a) %}{{ a|string }}"),
  t("crasher", "namespace that contains itself, as JSON", "{% set ns = namespace(x=1) %}{% set ns.x = ns %}{{ ns|tojson }}"),
  t("crasher", "macro calling itself through call", "{% macro f() %}{% call f() %}{% endcall %}{% endmacro %}{{ f() }}"),
  t("crasher", "range whose int64 counter wraps", `{{ range(${MIN_INT}, 9223372036854775807, 9223372036854775807)|list }}`),

  t("guard bypass", "set loop.x, then a recursive macro", LOOP_X + RECURSIVE_MACRO),
  t("guard bypass", "set loop.x, then 10^10 steps", LOOP_X + HUGE_LOOP),
  t("guard bypass", "set loop.x on a request, then a recursive macro", onMessage("bypass", LOOP_X + RECURSIVE_MACRO), "bypass"),
];

const PEER_SECURITY = resolve(__dirname, "../../../shared/peer-security");

/** Other scanners' escape fixtures (../shared/peer-security); none where that folder is not next to the checkout. */
export function peerEscapes(): HostileTemplate[] {
  if (!existsSync(PEER_SECURITY)) return [];
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".jinja")) files.push(p);
    }
  };
  walk(PEER_SECURITY);
  return files.map((f) => t("escape", relative(PEER_SECURITY, f), readFileSync(f, "utf8")));
}
