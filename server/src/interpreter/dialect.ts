// The dialect interface: what one engine version does differently, as tables plus small hooks, and
// the Runtime those hooks and the builtins get. The interpreter is engine-neutral and asks the dialect
// for everything that varies between engines; the dialects themselves live in server/src/dialects (a
// new engine version is a file there that starts from an existing dialect and replaces what differs).
// The interface lives here, with the interpreter, because the two refer to each other: the dialect's
// hooks take a Runtime, the Runtime carries the dialect.
import type * as A from "../parser";
import type { EngineId } from "../document";
import type { PyDict } from "./dict";
import type { CauseCode, Fault } from "./errors";
import type { CallArgs, Value } from "./values";

/** `node` is the filter as written (absent when a builtin applies a filter by name): some engines treat `x | f` and `x | f()` differently. */
export type FilterFn = (rt: Runtime, value: Value, a: CallArgs, node?: A.Filter) => Value;
export type TestFn = (rt: Runtime, value: Value, a: CallArgs) => boolean;
/** A method of a builtin type: `'a,b'.split(',')` calls `methods.str.split(rt, 'a,b', args)`. */
export type Method = (rt: Runtime, self: Value, a: CallArgs) => Value;
export type MethodTable = Readonly<Record<string, Method>>;

export interface MethodTables {
  str: MethodTable;
  list: MethodTable;
  dict: MethodTable;
  tuple: MethodTable;
  int: MethodTable;
  float: MethodTable;
}

export type ArithOp = "+" | "-" | "*" | "/" | "//" | "%" | "**";
export type CompareOp = "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not in";

/** Value semantics: each member may be replaced alone (`{ ...pythonOps, truthy: mine }`). */
export interface Operators {
  arith(op: ArithOp, a: Value, b: Value, rt: Runtime): Value;
  /** `a ~ b` */
  concat(a: Value, b: Value, rt: Runtime): Value;
  neg(v: Value, rt: Runtime): Value;
  pos(v: Value, rt: Runtime): Value;
  compare(op: CompareOp, a: Value, b: Value, rt: Runtime): boolean;
  truthy(v: Value): boolean;
  /** `obj.name` — including what happens on undefined (Jinja2 raises; lenient engines chain). */
  getattr(obj: Value, name: string, rt: Runtime): Value;
  /** `obj[key]`, and `obj.0` where the parser marked it numeric. */
  getitem(obj: Value, key: Value, rt: Runtime): Value;
  /** `obj[start:stop:step]` (missing parts are undefined). */
  slice(obj: Value, start: Value | undefined, stop: Value | undefined, step: Value | undefined, rt: Runtime): Value;
  iterate(v: Value, rt: Runtime): Iterable<Value>;
  /** `for a, b in …` / `set a, b = …`: the items of one element, or a fault. */
  unpack(v: Value, n: number, rt: Runtime): Value[];
  /** The items a `for` binds, given its number of targets (1 for a name); absent: `iterate`. */
  loopItems?(v: Value, targets: number, rt: Runtime): Value[];
  /** `{% set obj.name = v %}` where an engine allows it beyond a namespace; absent: Jinja2's rule. */
  setattr?(obj: Value, name: string, v: Value, rt: Runtime): void;
  /** A dict literal's key as the dict stores it (an engine's own string type made plain); absent: as is. */
  dictKey?(k: Value): Value;
  /**
   * `obj.name(args)` for engines whose grammar has a method call of its own (minja's MethodCallExpr)
   * instead of attribute access followed by a call; absent: getattr, then call.
   */
  callMethod?(obj: Value, name: string, a: CallArgs, rt: Runtime): Value;
  /** `a and b` for engines where it is a bool (minja); absent: Python's (`a` if falsy, else `b`). */
  and?(a: Value, right: () => Value, rt: Runtime): Value;
}

/** Which of the special names `caller`, `varargs`, `kwargs` a macro body reads. */
export interface MacroUses {
  caller: boolean;
  varargs: boolean;
  kwargs: boolean;
}

/** Binds a call's arguments to parameter values (`undefined` = not given: use the default). */
export interface Bound {
  values: (Value | undefined)[];
  extra: Map<string, Value>;
}

/** A construct the engine refuses: at parse time (nothing renders) or when reached. */
export interface Refusal {
  code: CauseCode;
  message: string;
  when: "parse" | "render";
}

export interface Dialect {
  engine: EngineId;
  /** The exact engine version the rules were measured on, e.g. "Jinja2 3.1.2". */
  version: string;
  /** Where the behaviour comes from (sources read, engine runs that were compared). */
  evidence: string;

  /** `{{ v }}` — how values print (None, booleans, floats, containers). */
  str(v: Value, rt: Runtime): string;
  /** The text a Text node emits; lets an engine apply its own whitespace rules to the source. */
  text(node: A.Text, source: string): string;
  /** Called once per node before rendering (cached per template); `ancestors` ends with the parent; `self` is the dialect in use (which may extend the one defining the hook); `source` is the template text (for spellings the AST normalises). */
  refuse(node: A.Node, ancestors: readonly A.Node[], self: Dialect, source: string): Refusal | null;

  ops: Operators;
  /**
   * The engine's own parser, where its grammar differs from Jinja2's enough to change values
   * (llama.cpp): the tree to run, or the error that fails every render. Absent: our parse, whose
   * syntax errors fail the render.
   */
  parse?(source: string): { template: A.Template } | { error: Refusal & A.Span };
  /** The context as the engine receives it (llama.cpp's addon reads 1.0 as 1); may throw a Fault. */
  context?(ctx: PyDict): PyDict;
  /**
   * Told of each value read through a name the template bound (set, loop target, macro parameter …);
   * context names are read through `context`'s dict. For analyses that watch values (caps/usage.ts).
   */
  variableRead?(v: Value): void;
  /**
   * The engine renders what llama.cpp's chat layer builds from a request (llama-server), not the context as
   * given: analysis/chatLayer's `renderRequest` builds it, since it depends on the template's caps. A plain
   * `render` with this dialect renders the context as given (the capability probe and the template guard do).
   */
  chatLayer?: boolean;
  /** The command-line flags llama-server was started with, for a `chatLayer` dialect (analysis/chatLayer reads them). */
  serverArgs?: readonly string[];
  /** When a `for`'s else runs: Jinja2's "when-empty" (default) or "unless-completed" (llama.cpp: no iteration ran to its end). */
  loopElse?: "when-empty" | "unless-completed";
  /** An iteration ended by break/continue writes nothing (@huggingface/jinja: the exception discards the strings its blocks had built). */
  loopControlDropsIteration?: boolean;
  /** Whose names a macro body sees besides its parameters: its definition's (default) or its call site's. */
  macroScope?: "definition" | "caller";
  /** How a macro call binds its arguments where the engine differs from Jinja2's Macro.__call__; `uses`: which of caller/varargs/kwargs the body reads. */
  bindMacroArgs?(name: string, params: readonly A.Param[], a: CallArgs, uses: MacroUses): Bound;
  /** The error for calling a value that cannot be called; absent: Jinja2's. */
  notCallable?(fn: Value): Fault;
  /** A call block fails on a callee that cannot be called before it evaluates the arguments (llama.cpp's call_statement). */
  callBlockChecksCallee?: boolean;
  /**
   * A statement that a break/continue interrupts writes nothing (llama.cpp: an `if` returns its text only
   * when it completes), so `{% for %}a{% if c %}b{% continue %}{% endif %}{% endfor %}` keeps "a", not "b".
   */
  loopControlDiscardsStatement?: boolean;
  /**
   * The error for a break/continue reached outside every loop body of its frame: at the top level,
   * in a for's else with no outer loop, or in a macro or caller body (a frame of its own unless
   * loopControlCrossesCalls). Absent: it ends that frame's rendering silently.
   */
  loopControlOutsideLoop?(kind: "break" | "continue"): Fault;
  /**
   * A break/continue in a macro or caller body ends the call and acts on the loop around the call
   * (llama.cpp and @huggingface/jinja throw it as an exception); absent: it ends that body.
   */
  loopControlCrossesCalls?: boolean;
  /** Bodies the engine runs in the enclosing scope, not one of their own: what they set stays visible after them (llama.cpp). */
  inlineScopes?: { setBlock?: boolean; filterBlock?: boolean; forElse?: boolean };
  /** The pieces `{{ v }}` writes where an engine keeps a string's parts apart (llama.cpp's string parts); absent: one, `str(v)`. */
  printParts?(v: Value): readonly string[];
  /** What a captured body (set or filter block, macro output) is, from the pieces it wrote; absent: their concatenation. */
  captured?(pieces: readonly string[]): Value;
  /**
   * How `for` scopes names where an engine differs from Jinja2's fresh scope per iteration: minja's
   * ForNode also assigns the target in the enclosing scope while it collects the items (so the
   * name holds the last item after the loop) and renders every iteration in one scope.
   */
  loopScope?: { leaksTarget: boolean; sharedAcrossIterations: boolean };
  /**
   * Names a frame starts with as undefined, shadowing the context, keyed by the id of the node that
   * opens the frame (the template, a for, macro, call block or with): Jinja2 3.1.2's tracking of a
   * name set in every branch of an if. Computed once per template; absent: none.
   */
  frameUndefined?(template: A.Template): ReadonlyMap<number, readonly string[]>;
  /** Absent names do not exist in the engine; using one raises `unknownFilter`/`unknownTest`. */
  filters: Readonly<Record<string, FilterFn>>;
  tests: Readonly<Record<string, TestFn>>;
  methods: MethodTables;
  /** Names every template sees (range, namespace, raise_exception, strftime_now, …). */
  globals: Readonly<Record<string, Value>>;
  /** `value` is the filter's input (llama.cpp names its type); absent when asked without a render. */
  unknownFilter(name: string, value?: Value): Fault;
  unknownTest(name: string): Fault;
  /** The engine's wording of an error (Jinja2: `TypeError: …`). */
  errorMessage(f: Fault): string;
}

/** Own-property lookup: template-chosen names must never reach Object.prototype. */
export function own<T>(table: Readonly<Record<string, T>>, name: string): T | undefined {
  let m = ownCache.get(table) as Map<string, T> | undefined;
  // A table spread from others is a dictionary-mode object; a Map is faster to probe per node.
  if (!m) ownCache.set(table, (m = new Map(Object.entries(table))));
  return m.get(name);
}

/** Tables are built once per dialect and never mutated afterwards, so their Map views stay valid. */
const ownCache = new WeakMap<object, Map<string, unknown>>();

// What builtins (filters, tests, methods, globals) and operators see of the running interpreter.
// They get it as an argument instead of importing the evaluator, so a dialect can reuse them.
export interface Runtime {
  readonly dialect: Dialect;
  /** How the engine turns a value into output text (`{{ v }}`, `~`, `| string`). */
  str(v: Value): string;
  call(fn: Value, a: CallArgs): Value;
  getattr(obj: Value, name: string): Value;
  getitem(obj: Value, key: Value): Value;
  iterate(v: Value): Iterable<Value>;
  /** Applies a filter/test by name, as `map('upper')` and `select('odd')` do. */
  filter(name: string, v: Value, a: CallArgs): Value;
  test(name: string, v: Value, a: CallArgs): boolean;
  /** The wall-clock time strftime_now reports (pinned by the render options). */
  now(): WallClock;
  /** Counts work done inside builtins, so their loops spend the step budget too. */
  tick(n: number): void;
  /** Jinja2's eval_ctx.autoescape: inside `{% autoescape true %}` join escapes and some filters return Markup. */
  autoescaping(): boolean;
  /** Refuses (limit/output) to build a string or list longer than the output limit. */
  checkSize(length: number): void;
  /** Refuses (limit/output) to print a value whose printed form would outgrow the output limit. */
  checkPrinted(v: Value, perItem?: number): void;
}

/** A naive local date-time, as Python's datetime.now() gives it. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
}

export const NO_ARGS: CallArgs = Object.freeze({ args: Object.freeze([]) as unknown as Value[], kwargs: null });
