// Random small chat-template-like programs from Jinja's grammar, for differential tests of a
// dialect against its real engine. Reproducible (seeded) and narrowable: each engine's test picks
// the features, filters, tests and methods that engine is meant to share with the others, so the
// same generator drives jinja2 vs Python, llamacpp vs llama.cpp's addon, hfjinja vs @huggingface/jinja.
import { pick, rng } from "./random";

export type Feature =
  | "if"
  | "for"
  | "loopVars"
  | "loopControls"
  | "loopFilter"
  | "set"
  | "setBlock"
  | "namespace"
  | "macro"
  | "callBlock"
  | "filterBlock"
  | "with"
  | "whitespace"
  | "comments"
  | "slices"
  | "numericAttr"
  | "power"
  | "floorDiv"
  | "modulo"
  | "condNoElse"
  | "raise"
  | "strftime"
  | "floats"
  | "bigInts"
  | "unicode"
  | "dictLiterals"
  | "tuples";

export const ALL_FEATURES: readonly Feature[] = [
  "if",
  "for",
  "loopVars",
  "loopControls",
  "loopFilter",
  "set",
  "setBlock",
  "namespace",
  "macro",
  "callBlock",
  "filterBlock",
  "with",
  "whitespace",
  "comments",
  "slices",
  "numericAttr",
  "power",
  "floorDiv",
  "modulo",
  "condNoElse",
  "raise",
  "strftime",
  "floats",
  "bigInts",
  "unicode",
  "dictLiterals",
  "tuples",
];

export interface GenOptions {
  seed: number;
  /** Constructs to use (default: all). */
  features?: readonly Feature[];
  /** Filters to draw from (default: DEFAULT_FILTERS). */
  filters?: readonly string[];
  /** Tests to draw from (default: DEFAULT_TESTS). */
  tests?: readonly string[];
  /** Methods to call on values (default: DEFAULT_METHODS). */
  methods?: readonly string[];
  /** Statement nesting depth (default 3). */
  maxDepth?: number;
  /** Whether whitespace control may use `+` (default true; llama.cpp's lexer has no `+` sign). */
  plusSigns?: boolean;
  /** Whether float literals may have an exponent, `1e16` (default true; llama.cpp lexes that as `1` then `e16`). */
  exponentFloats?: boolean;
  /** Whether a test's argument is always parenthesised, `is eq(1)` (default false: `is eq 1` too; llama.cpp parses only the former). */
  testArgsInParens?: boolean;
}

const BASE_CONTEXT = {
  s: "Hello World",
  e: "",
  u: "héllo wörld ✓ ß",
  sp: "  a b  \n",
  csv: "a,b,,c",
  n: 3,
  z: 0,
  neg: -2,
  t: true,
  fa: false,
  nn: null,
  l: [1, 2, 3],
  ls: ["b", "A", "c"],
  el: [],
  lm: [1, "a", null, true],
  ll: [
    [1, 2],
    [3, 4],
  ],
  d: { a: 1, b: "x", c: [1, 2] },
  ed: {},
  msgs: [
    { role: "system", content: "Be brief." },
    { role: "user", content: "Hi there" },
    { role: "assistant", content: null, tool_calls: [{ id: "c1", function: { name: "get", arguments: { x: 1 } } }] },
    { role: "tool", content: "42" },
  ],
  tools: [
    {
      type: "function",
      function: { name: "get", description: "Get x", parameters: { type: "object", properties: { x: { type: "integer" } } } },
    },
    null,
  ],
};

/**
 * The context of every generated template, as JSON text: JSON.stringify cannot write the floats
 * `1.0` and the big int, which are spliced in as Python's json.loads reads them.
 */
export const GEN_CONTEXT_JSON = JSON.stringify(BASE_CONTEXT).replace(
  /}$/,
  ', "f": 2.5, "g": 1.0, "tiny": 1e-07, "big": 12345678901234567890}',
);

export const DEFAULT_FILTERS: readonly string[] = [
  "abs",
  "attr",
  "batch",
  "capitalize",
  "center",
  "count",
  "default",
  "dictsort",
  "e",
  "escape",
  "first",
  "float",
  "format",
  "groupby",
  "indent",
  "int",
  "items",
  "join",
  "last",
  "length",
  "list",
  "lower",
  "map",
  "max",
  "min",
  "reject",
  "rejectattr",
  "replace",
  "reverse",
  "round",
  "safe",
  "select",
  "selectattr",
  "slice",
  "sort",
  "string",
  "striptags",
  "sum",
  "title",
  "tojson",
  "trim",
  "truncate",
  "unique",
  "upper",
  "urlencode",
  "wordcount",
  "xmlattr",
  "filesizeformat",
  "forceescape",
];

export const DEFAULT_TESTS: readonly string[] = [
  "defined",
  "undefined",
  "none",
  "string",
  "mapping",
  "iterable",
  "sequence",
  "number",
  "integer",
  "float",
  "boolean",
  "true",
  "false",
  "odd",
  "even",
  "divisibleby",
  "in",
  "eq",
  "ne",
  "lt",
  "gt",
  "le",
  "ge",
  "callable",
  "lower",
  "upper",
  "sameas",
  "escaped",
  "filter",
  "test",
];

export const DEFAULT_METHODS: readonly string[] = [
  "upper",
  "lower",
  "strip",
  "lstrip",
  "rstrip",
  "split",
  "rsplit",
  "startswith",
  "endswith",
  "replace",
  "find",
  "count",
  "title",
  "capitalize",
  "join",
  "format",
  "items",
  "keys",
  "values",
  "get",
  "isdigit",
  "isalpha",
  "splitlines",
  "partition",
  "center",
  "zfill",
  "index",
  "copy",
  "ljust",
  "swapcase",
  "removeprefix",
];

const ATTRS = ["a", "b", "c", "role", "content", "function", "name", "tool_calls", "arguments", "type", "x"];
const STRINGS = ["'a'", "''", "'x y'", "'A,b'", '"q\'s"', "'%s'", "'{}'", "'<b>'", "' pad '", "'user'", "'a\\nb'"];
const UNICODE_STRINGS = ["'é'", "'ß'", "'日本'", "'😀'"];

export interface GeneratedCase {
  template: string;
}

class Gen {
  private readonly r: () => number;
  private readonly on: ReadonlySet<Feature>;
  private readonly filters: readonly string[];
  private readonly tests: readonly string[];
  private readonly methods: readonly string[];
  private readonly maxDepth: number;
  private readonly signs: readonly string[];
  private readonly testArgsInParens: boolean;
  private readonly floats: (pool: string[]) => string[];
  private locals: string[] = [];
  private macros: { name: string; arity: number }[] = [];
  private loopDepth = 0;

  constructor(o: GenOptions) {
    this.r = rng(o.seed);
    this.on = new Set(o.features ?? ALL_FEATURES);
    this.filters = o.filters ?? DEFAULT_FILTERS;
    this.tests = o.tests ?? DEFAULT_TESTS;
    this.methods = o.methods ?? DEFAULT_METHODS;
    this.maxDepth = o.maxDepth ?? 3;
    this.signs = o.plusSigns === false ? ["-", ""] : ["-", "+", ""];
    this.testArgsInParens = o.testArgsInParens ?? false;
    this.floats = o.exponentFloats === false ? (pool) => pool.filter((f) => !/\de/.test(f)) : (pool) => pool;
  }

  private chance(p: number): boolean {
    return this.r() < p;
  }
  private int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  private has(f: Feature): boolean {
    return this.on.has(f);
  }

  template(): string {
    const parts: string[] = [];
    const n = this.int(1, 3);
    for (let i = 0; i < n; i++) parts.push(this.stmt(0));
    return parts.join("");
  }

  private ws(open: "{%" | "{{", close: "%}" | "}}"): [string, string] {
    if (!this.has("whitespace") || !this.chance(0.3)) return [open, close];
    const l = pick(this.r, this.signs);
    const r = pick(this.r, ["-", ""]);
    return [open + (open === "{{" && l === "+" ? "" : l), (close === "}}" ? r : pick(this.r, this.signs)) + close];
  }

  private tag(body: string): string {
    const [o, c] = this.ws("{%", "%}");
    return `${o} ${body} ${c}`;
  }

  private text(): string {
    return pick(
      this.r,
      ["x", " ", "\n", "a b", "  \n  ", "<|im_start|>", "\n\n", "-", "é"].filter((t) => this.has("unicode") || t !== "é"),
    );
  }

  private body(depth: number): string {
    let out = "";
    const n = this.int(1, 3);
    for (let i = 0; i < n; i++) out += this.stmt(depth + 1);
    return out;
  }

  private stmt(depth: number): string {
    const options: (() => string)[] = [() => this.text(), () => this.output(), () => this.output()];
    if (depth < this.maxDepth) {
      if (this.has("if")) options.push(() => this.ifStmt(depth));
      if (this.has("for")) options.push(() => this.forStmt(depth));
      if (this.has("macro") && this.macros.length < 2) options.push(() => this.macro(depth));
      if (this.has("callBlock") && this.macros.length) options.push(() => this.callBlock(depth));
      if (this.has("filterBlock"))
        options.push(
          () => `${this.tag(`filter ${pick(this.r, ["upper", "trim", "lower", "title"])}`)}${this.body(depth)}${this.tag("endfilter")}`,
        );
      if (this.has("setBlock")) options.push(() => this.setBlock(depth));
      if (this.has("with"))
        options.push(() => `${this.tag(`with w = ${this.expr(1)}`)}${this.scoped(["w"], () => this.body(depth))}${this.tag("endwith")}`);
    }
    if (this.has("set")) options.push(() => this.set());
    if (this.has("namespace")) options.push(() => this.namespace());
    if (this.has("comments")) options.push(() => pick(this.r, ["{# c #}", "{#- c -#}", "{# c -#}"]));
    if (this.has("loopControls") && this.loopDepth > 0) options.push(() => this.tag(pick(this.r, ["break", "continue"])));
    if (this.macros.length) options.push(() => this.macroCall());
    return pick(this.r, options)();
  }

  private scoped<T>(names: string[], f: () => T): T {
    const saved = this.locals;
    this.locals = [...this.locals, ...names];
    try {
      return f();
    } finally {
      this.locals = saved;
    }
  }

  private output(): string {
    const [o, c] = this.ws("{{", "}}");
    return `${o} ${this.expr(0)} ${c}`;
  }

  private ifStmt(depth: number): string {
    let s = `${this.tag(`if ${this.condition()}`)}${this.body(depth)}`;
    if (this.chance(0.3)) s += `${this.tag(`elif ${this.condition()}`)}${this.body(depth)}`;
    if (this.chance(0.4)) s += `${this.tag("else")}${this.body(depth)}`;
    return s + this.tag("endif");
  }

  private forStmt(depth: number): string {
    const pairs = this.chance(0.25);
    const target = pairs ? "k, v" : "x";
    const iter = pairs
      ? pick(this.r, ["d.items()", "d | dictsort", "ll", "msgs[2].tool_calls[0].function.arguments.items()", "ed.items()"])
      : this.iterable();
    const filter = this.has("loopFilter") && this.chance(0.2) ? ` if ${pairs ? "k" : "x"}` : "";
    this.loopDepth++;
    const body = this.scoped(pairs ? ["k", "v", "loop"] : ["x", "loop"], () => this.body(depth));
    this.loopDepth--;
    const orElse = this.chance(0.2) ? `${this.tag("else")}${this.body(depth)}` : "";
    return `${this.tag(`for ${target} in ${iter}${filter}`)}${body}${orElse}${this.tag("endfor")}`;
  }

  private iterable(): string {
    return pick(this.r, [
      "l",
      "ls",
      "el",
      "lm",
      "msgs",
      "tools",
      "s",
      "d",
      "range(3)",
      "range(1, 5, 2)",
      "[1, 2]",
      "missing",
      "ll",
      "csv.split(',')",
      "msgs | map(attribute='role')",
      "l | reverse",
      "msgs | selectattr('content')",
    ]);
  }

  private set(): string {
    const name = pick(this.r, ["v1", "v2", "x"]);
    const s = this.tag(`set ${name} = ${this.expr(0)}`);
    if (!this.locals.includes(name)) this.locals.push(name);
    return s;
  }

  private setBlock(depth: number): string {
    const s = `${this.tag(`set sb${this.chance(0.3) ? " | upper" : ""}`)}${this.body(depth)}${this.tag("endset")}`;
    if (!this.locals.includes("sb")) this.locals.push("sb");
    return s;
  }

  private namespace(): string {
    if (!this.locals.includes("ns")) {
      this.locals.push("ns");
      return this.tag(`set ns = namespace(a=${this.expr(2)}, b=0)`);
    }
    return this.tag(`set ns.${pick(this.r, ["a", "b"])} = ${this.expr(1)}`);
  }

  private macro(depth: number): string {
    const name = `m${this.macros.length}`;
    const arity = this.int(0, 2);
    const params = ["p", "q"].slice(0, arity);
    const sig = params.map((p, i) => (i === arity - 1 && this.chance(0.5) ? `${p}=${this.literal()}` : p)).join(", ");
    // A macro body is a function of its own: loop controls of an outer loop are a SyntaxError there.
    const loops = this.loopDepth;
    this.loopDepth = 0;
    const body = this.scoped(
      [...params, "varargs", "kwargs"],
      () => this.body(depth) + (this.chance(0.3) ? "{{ caller() if caller is defined }}" : ""),
    );
    this.loopDepth = loops;
    this.macros.push({ name, arity });
    return `${this.tag(`macro ${name}(${sig})`)}${body}${this.tag("endmacro")}`;
  }

  private macroArgs(arity: number): string {
    const n = this.chance(0.85) ? arity : this.int(0, arity + 1);
    const args = Array.from({ length: n }, () => this.expr(2));
    if (n > 0 && this.chance(0.2)) args[n - 1] = `${n === 1 ? "p" : "q"}=${args[n - 1]}`;
    return args.join(", ");
  }

  private macroCall(): string {
    const m = pick(this.r, this.macros);
    const [o, c] = this.ws("{{", "}}");
    return `${o} ${m.name}(${this.macroArgs(m.arity)})${this.chance(0.2) ? " | trim" : ""} ${c}`;
  }

  private callBlock(depth: number): string {
    const m = pick(this.r, this.macros);
    const loops = this.loopDepth;
    this.loopDepth = 0;
    const body = this.body(depth);
    this.loopDepth = loops;
    return `${this.tag(`call ${m.name}(${this.macroArgs(m.arity)})`)}${body}${this.tag("endcall")}`;
  }

  // ------------------------------------------------------------ expressions

  private literal(): string {
    const opts: (() => string)[] = [
      () => String(this.int(-3, 10)),
      () => pick(this.r, STRINGS),
      () => pick(this.r, ["none", "None", "true", "True", "false", "False"]),
    ];
    if (this.has("floats"))
      opts.push(() => pick(this.r, this.floats(["0.5", "1.0", "2.25", "1e16", "1.5e-5", "0.1", "100.0", "-0.0", "3.14159"])));
    if (this.has("bigInts")) opts.push(() => pick(this.r, ["9007199254740993", "12345678901234567890"]));
    if (this.has("unicode")) opts.push(() => pick(this.r, UNICODE_STRINGS));
    return pick(this.r, opts)();
  }

  // Expressions are built by type (str, num, bool, list, dict) so that most templates render; a
  // share is deliberately ill-typed, so that error paths are compared too.

  expr(depth: number): string {
    if (this.chance(0.08)) return this.wild(depth);
    return this.typed(pick(this.r, TYPES), depth);
  }

  private typed(t: Ty, depth: number): string {
    if (depth >= 3) return this.atom(t);
    const r = this.r();
    if (r < 0.35) return this.atom(t);
    if (r < 0.55) return this.viaFilter(t, depth);
    if (r < 0.7) return this.viaMethod(t, depth);
    if (r < 0.77 && this.macros.length && t === "str") return `${pick(this.r, this.macros).name}(${this.macroArgs(1)})`;
    if (r < 0.85) return `(${this.typed(t, depth + 1)} if ${this.condition()} else ${this.typed(t, depth + 1)})`;
    return this.operator(t, depth);
  }

  /** Anything goes: names, chains and operators regardless of type. */
  private wild(depth: number): string {
    const a = this.typed(pick(this.r, TYPES), depth + 1);
    const b = this.typed(pick(this.r, TYPES), depth + 1);
    return pick(this.r, [
      () => `${this.paren(a)} ${this.arithOp()} ${this.paren(b)}`,
      () => `${this.paren(a)} ${pick(this.r, ["<", ">", "in"])} ${this.paren(b)}`,
      () => `-${this.paren(a)}`,
      () => `${this.paren(a)}.${pick(this.r, ATTRS)}`,
      () => `${this.paren(a)}[${pick(this.r, ["0", "-1", "5", "'a'"])}]`,
      () => `${this.paren(a)}.${pick(this.r, this.methods)}()`,
      () => `missing${pick(this.r, ["", ".x", "[0]", " + 1", " ~ 'a'", " | default('d')", ".x | default('d')"])}`,
      () => `${this.paren(a)} | ${pick(this.r, this.filters)}`,
      () => (this.has("condNoElse") ? `(${a} if ${this.condition()})` : a),
      () => (this.has("raise") ? "raise_exception('boom')" : a),
    ])();
  }

  /** Wraps anything but a plain dotted name in parentheses (`1.x` would lex as a float). */
  private paren(e: string): string {
    return /^[A-Za-z_][\w.]*$/.test(e) ? e : `(${e})`;
  }

  private atom(t: Ty): string {
    const inLoop = this.loopDepth > 0 && this.has("loopVars");
    const locals = this.locals.filter((x) => x !== "loop");
    const strs = [...STRINGS, "s", "u", "sp", "csv", "e", "msgs[1].content", "msgs[0]['role']", "tools[0].function.name"];
    if (this.has("unicode")) strs.push(...UNICODE_STRINGS);
    if (this.has("strftime")) strs.push(`strftime_now(${pick(this.r, ["'%Y-%m-%d'", "'%d %b %Y'", "'%B %d, %Y'", "'%H:%M'", "'%A %j'"])})`);
    if (locals.includes("sb")) strs.push("sb");
    const nums = ["0", "1", "2", "3", "-1", "10", "n", "z", "neg"];
    if (inLoop) nums.push("loop.index", "loop.index0", "loop.length", "loop.revindex", "loop.revindex0", "loop.depth");
    if (this.has("floats")) nums.push(...this.floats(["0.5", "1.0", "2.25", "1e16", "1.5e-5", "0.1", "-0.0", "f", "g", "tiny"]));
    if (this.has("bigInts")) nums.push("9007199254740993", "big");
    if (locals.includes("ns")) nums.push("ns.b");
    const bools = ["true", "false", "True", "False", "t", "fa"];
    if (inLoop) bools.push("loop.first", "loop.last");
    const lists = [
      "l",
      "ls",
      "el",
      "lm",
      "ll",
      "msgs",
      "tools",
      "[1, 2]",
      "[]",
      "['a', 'b']",
      "msgs[2].tool_calls",
      "(range(3) | list)",
      "csv.split(',')",
    ];
    if (this.has("tuples")) lists.push("(1, 'a')", "(2,)");
    const dicts = ["d", "ed", "msgs[0]", "msgs[2].tool_calls[0].function.arguments", "tools[0].function", "dict(a=1, b=2)"];
    if (this.has("dictLiterals")) dicts.push("{'a': 1}", "{'k': 'v', 'a': [1]}", "{}", "{1: 'one'}");
    const pool = [...{ str: strs, num: nums, bool: bools, list: lists, dict: dicts }[t]];
    if (t === "str" || this.chance(0.15)) {
      pool.push(...locals, "nn", "none");
      if (inLoop) pool.push("loop.previtem", "loop.nextitem", "loop.cycle('odd', 'even')");
    }
    if (locals.includes("ns")) pool.push("ns.a");
    let e = pick(this.r, pool);
    // Only names are sliced: Jinja2's constant folding makes `none[1:]` an Undefined at compile time
    // where the same slice of a variable raises (a quirk not modelled).
    if (this.has("slices") && (t === "str" || t === "list") && /^[a-z]\w*$/.test(e) && e !== "none" && this.chance(0.1))
      e = `${e}[${pick(this.r, ["1:", ":2", "::-1", "1:3", "-2:", "::2"])}]`;
    if (this.has("numericAttr") && t !== "num" && this.chance(0.05)) e = `${this.paren(e)}.0`;
    return e;
  }

  private viaFilter(t: Ty, depth: number): string {
    const fits = FILTER_SIGS.filter((f) => f.out === t && this.filters.includes(f.name));
    if (!fits.length) return this.atom(t);
    const f = pick(this.r, fits);
    const input = this.typed(pick(this.r, f.in), depth + 1);
    return `${this.paren(input)} | ${f.name}${pick(this.r, f.args)}${f.then ?? ""}`;
  }

  private viaMethod(t: Ty, depth: number): string {
    const fits = METHOD_SIGS.filter((m) => m.out === t && this.methods.includes(m.name));
    if (!fits.length) return this.atom(t);
    const m = pick(this.r, fits);
    return `${this.paren(this.typed(m.self, depth + 1))}.${m.name}(${pick(this.r, m.args)})`;
  }

  private operator(t: Ty, depth: number): string {
    const sub = (u: Ty) => this.paren(this.typed(u, depth + 1));
    const any = () => pick(this.r, TYPES);
    switch (t) {
      case "str":
        return pick(this.r, [
          () => `${sub("str")} ~ ${sub(any())}`,
          () => `${sub("str")} + ${sub("str")}`,
          () => `${sub("str")} * ${pick(this.r, ["2", "0", "-1"])}`,
          () => (this.has("modulo") ? `'%s-%d' % (${sub("str")}, ${pick(this.r, ["n", "3", "True"])})` : sub("str")),
          () => `${sub("str")}[${pick(this.r, ["0", "-1", "1"])}]`,
        ])();
      case "num": {
        const ops = ["+", "-", "*", "/"];
        if (this.has("floorDiv")) ops.push("//");
        if (this.has("modulo")) ops.push("%");
        if (this.has("power")) ops.push("**");
        const op = pick(this.r, ops);
        // No fractional powers: a negative base would need Python's complex numbers.
        const right =
          op === "**"
            ? pick(this.r, ["2", "3", "-1"])
            : ["/", "//", "%"].includes(op)
              ? pick(this.r, ["2", "3", "-2", "0.5", "n", "z"])
              : sub("num");
        return this.chance(0.15) ? `-${sub("num")}` : `${sub("num")} ${op} ${right}`;
      }
      case "bool":
        return pick(this.r, [
          () => `${sub("num")} ${pick(this.r, ["==", "!=", "<", ">", "<=", ">="])} ${sub("num")}`,
          () => `${sub("str")} ${pick(this.r, ["==", "!=", "<", ">"])} ${sub("str")}`,
          () => `${sub(pick(this.r, ["str", "num"]))} ${pick(this.r, ["in", "not in"])} ${sub(pick(this.r, ["list", "str", "dict"]))}`,
          () => `${sub(any())} ${pick(this.r, ["and", "or"])} ${sub(any())}`,
          () => `not ${sub(any())}`,
          () => this.testExpr(),
          () => `${sub("list")} == ${sub("list")}`,
        ])();
      case "list":
        return pick(this.r, [
          () => `${sub("list")} + ${sub("list")}`,
          () => `[${Array.from({ length: this.int(0, 3) }, () => this.typed(any(), depth + 1)).join(", ")}]`,
          () => `${sub("list")} * 2`,
        ])();
      case "dict":
        return `{${Array.from({ length: this.int(1, 2) }, () => `${pick(this.r, ["'a'", "'k'", "1", "'role'"])}: ${this.typed(any(), depth + 1)}`).join(", ")}}`;
    }
  }

  private condition(): string {
    return this.chance(0.5) ? this.testExpr() : this.typed(pick(this.r, TYPES), 2);
  }

  private testExpr(): string {
    const t = pick(this.r, this.tests);
    const args: Record<string, string[]> = {
      divisibleby: [" 3", "(2)"],
      in: [" l", " 'Hello'", " d", " [1, 'a']"],
      eq: [" 1", " 'a'"],
      ne: [" 1"],
      lt: [" 3"],
      gt: [" 0"],
      le: [" 1"],
      ge: [" 2"],
      sameas: [" none", " true"],
    };
    const numeric = ["odd", "even", "divisibleby", "lt", "gt", "le", "ge"].includes(t);
    const subject =
      t === "filter" || t === "test"
        ? pick(this.r, ["'upper'", "'nope'", "'odd'"])
        : this.paren(this.typed(numeric ? "num" : pick(this.r, TYPES), 2));
    // Parenthesised: a test without arguments would take a following name as its argument.
    const arg = pick(this.r, args[t] ?? [""]);
    return `(${subject} is ${this.chance(0.2) ? "not " : ""}${t}${this.testArgsInParens && arg.startsWith(" ") ? `(${arg.slice(1)})` : arg})`;
  }

  private arithOp(): string {
    const ops = ["+", "-", "*", "/", "~"];
    if (this.has("floorDiv")) ops.push("//");
    if (this.has("modulo")) ops.push("%");
    if (this.has("power")) ops.push("**");
    return pick(this.r, ops);
  }
}

type Ty = "str" | "num" | "bool" | "list" | "dict";
const TYPES: readonly Ty[] = ["str", "str", "str", "num", "num", "bool", "list", "dict"];

interface FilterSig {
  name: string;
  in: Ty[];
  out: Ty;
  args: string[];
  /** Appended after the call (`| list` to materialise a generator). */
  then?: string;
}

const FILTER_SIGS: FilterSig[] = [
  { name: "abs", in: ["num"], out: "num", args: [""] },
  { name: "attr", in: ["dict"], out: "str", args: ["('a')", "('role')"] },
  { name: "batch", in: ["list"], out: "list", args: ["(2)", "(2, 'x')"], then: " | list" },
  { name: "capitalize", in: ["str"], out: "str", args: [""] },
  { name: "center", in: ["str"], out: "str", args: ["", "(9)"] },
  { name: "count", in: ["list", "str", "dict"], out: "num", args: [""] },
  { name: "default", in: ["str", "list"], out: "str", args: ["", "('dflt')", "('d', true)"] },
  { name: "dictsort", in: ["dict"], out: "list", args: ["", "(reverse=true)", "(false, 'value')"] },
  { name: "e", in: ["str"], out: "str", args: [""] },
  { name: "escape", in: ["str", "num"], out: "str", args: [""] },
  { name: "first", in: ["list", "str"], out: "str", args: [""] },
  { name: "float", in: ["str", "num"], out: "num", args: ["", "(5)"] },
  { name: "format", in: ["str"], out: "str", args: ["(1)", "('a', 2)"] },
  { name: "groupby", in: ["list"], out: "list", args: ["('role')", "('a')"] },
  { name: "indent", in: ["str"], out: "str", args: ["", "(2)", "(2, true)", "(2, blank=true)", "('> ')"] },
  { name: "int", in: ["str", "num"], out: "num", args: ["", "(5)"] },
  { name: "items", in: ["dict"], out: "list", args: [""], then: " | list" },
  { name: "join", in: ["list", "str"], out: "str", args: ["", "(', ')", "('|', attribute='role')"] },
  { name: "last", in: ["list", "str"], out: "str", args: [""] },
  { name: "length", in: ["list", "str", "dict"], out: "num", args: [""] },
  { name: "list", in: ["list", "str", "dict"], out: "list", args: [""] },
  { name: "lower", in: ["str"], out: "str", args: [""] },
  {
    name: "map",
    in: ["list"],
    out: "list",
    args: ["('upper')", "(attribute='role')", "('string')", "('length')", "(attribute='missing', default='?')"],
    then: " | list",
  },
  { name: "max", in: ["list", "str"], out: "num", args: ["", "(attribute='a')"] },
  { name: "min", in: ["list", "str"], out: "num", args: ["", "(case_sensitive=true)"] },
  { name: "reject", in: ["list"], out: "list", args: ["('none')", "('odd')", ""], then: " | list" },
  { name: "rejectattr", in: ["list"], out: "list", args: ["('content')", "('role', 'equalto', 'user')"], then: " | list" },
  { name: "replace", in: ["str"], out: "str", args: ["('l', 'L')", "('a', 'b', 1)", "('', '-')"] },
  { name: "reverse", in: ["list", "str"], out: "list", args: [""], then: " | list" },
  { name: "round", in: ["num"], out: "num", args: ["", "(1)", "(2, 'floor')", "(0, 'ceil')"] },
  { name: "safe", in: ["str"], out: "str", args: [""] },
  { name: "select", in: ["list"], out: "list", args: ["('string')", "('odd')", ""], then: " | list" },
  {
    name: "selectattr",
    in: ["list"],
    out: "list",
    args: ["('content')", "('role', 'eq', 'user')", "('tool_calls', 'defined')"],
    then: " | list",
  },
  { name: "slice", in: ["list"], out: "list", args: ["(2)", "(3, 0)"], then: " | list" },
  { name: "sort", in: ["list"], out: "list", args: ["", "(reverse=true)", "(attribute='a')", "(case_sensitive=true)"] },
  { name: "string", in: ["num", "list", "dict", "bool"], out: "str", args: [""] },
  { name: "striptags", in: ["str"], out: "str", args: [""] },
  { name: "sum", in: ["list"], out: "num", args: ["", "(start=10)"] },
  { name: "title", in: ["str"], out: "str", args: [""] },
  {
    name: "tojson",
    in: ["dict", "list", "str", "num", "bool"],
    out: "str",
    args: ["", "(indent=2)", "(sort_keys=true)", "(separators=(',', ':'))", "(ensure_ascii=true)"],
  },
  { name: "trim", in: ["str"], out: "str", args: ["", "('H')"] },
  { name: "truncate", in: ["str"], out: "str", args: ["(5)", "(9, true)", "(8, false, '…', 0)"] },
  { name: "unique", in: ["list"], out: "list", args: ["", "(attribute='role')"], then: " | list" },
  { name: "upper", in: ["str"], out: "str", args: [""] },
  { name: "urlencode", in: ["str", "dict"], out: "str", args: [""] },
  { name: "wordcount", in: ["str"], out: "num", args: [""] },
  { name: "xmlattr", in: ["dict"], out: "str", args: ["", "(false)"] },
  { name: "filesizeformat", in: ["num"], out: "str", args: ["", "(true)"] },
  { name: "forceescape", in: ["str"], out: "str", args: [""] },
];

interface MethodSig {
  name: string;
  self: Ty;
  out: Ty;
  args: string[];
}

const METHOD_SIGS: MethodSig[] = [
  { name: "upper", self: "str", out: "str", args: [""] },
  { name: "lower", self: "str", out: "str", args: [""] },
  { name: "strip", self: "str", out: "str", args: ["", "'H'", "' d'"] },
  { name: "lstrip", self: "str", out: "str", args: ["", "'H'"] },
  { name: "rstrip", self: "str", out: "str", args: ["", "'d'"] },
  { name: "split", self: "str", out: "list", args: ["", "','", "' '", "',', 1"] },
  { name: "rsplit", self: "str", out: "list", args: ["", "',', 1"] },
  { name: "startswith", self: "str", out: "bool", args: ["'H'", "'a'", "('a', 'H')"] },
  { name: "endswith", self: "str", out: "bool", args: ["'d'", "'x'"] },
  { name: "replace", self: "str", out: "str", args: ["'l', 'L'", "'o', '0', 1", "'', '-'"] },
  { name: "find", self: "str", out: "num", args: ["'o'", "'z'"] },
  { name: "count", self: "str", out: "num", args: ["'l'", "''"] },
  { name: "title", self: "str", out: "str", args: [""] },
  { name: "capitalize", self: "str", out: "str", args: [""] },
  { name: "join", self: "str", out: "str", args: ["['a', 'b']", "ls"] },
  { name: "format", self: "str", out: "str", args: ["1", "'x', 2", "n=1"] },
  { name: "isdigit", self: "str", out: "bool", args: [""] },
  { name: "isalpha", self: "str", out: "bool", args: [""] },
  { name: "splitlines", self: "str", out: "list", args: ["", "True"] },
  { name: "partition", self: "str", out: "list", args: ["' '", "','"] },
  { name: "center", self: "str", out: "str", args: ["9", "9, '*'"] },
  { name: "zfill", self: "str", out: "str", args: ["5"] },
  { name: "ljust", self: "str", out: "str", args: ["6", "6, '.'"] },
  { name: "swapcase", self: "str", out: "str", args: [""] },
  { name: "removeprefix", self: "str", out: "str", args: ["'He'", "'x'"] },
  { name: "index", self: "str", out: "num", args: ["'o'", "'z'"] },
  { name: "items", self: "dict", out: "list", args: [""] },
  { name: "keys", self: "dict", out: "list", args: [""] },
  { name: "values", self: "dict", out: "list", args: [""] },
  { name: "get", self: "dict", out: "str", args: ["'a'", "'z', 'dflt'", "'role'"] },
  { name: "copy", self: "list", out: "list", args: [""] },
  { name: "index", self: "list", out: "num", args: ["1", "'b'"] },
  { name: "count", self: "list", out: "num", args: ["1"] },
];

/** `count` templates from `options.seed`; the same options always give the same templates. */
export function generateTemplates(count: number, options: GenOptions): GeneratedCase[] {
  return Array.from({ length: count }, (_, i) => ({ template: new Gen({ ...options, seed: options.seed * 1_000_003 + i }).template() }));
}
