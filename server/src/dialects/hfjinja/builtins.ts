// What @huggingface/jinja exposes on values (the `builtins` maps of StringValue, ArrayValue and
// ObjectValue in runtime.ts) and as globals (setupGlobals, the Environment's `namespace`).
// Builtins receive the engine's calling convention: the positional values, then one
// KeywordArgumentsValue holding the keyword arguments, if there are any.
import {
  BuiltinFunction,
  type CallArgs,
  Fault,
  LoopContext,
  Namespace,
  PyDict,
  Undefined,
  type Runtime,
  type Value,
  type WallClock,
} from "../../interpreter/kit";
import { arrayOf, entriesOf, intResult, isInt, isNumeric, num, raw, typeOf, type Int } from "./values";

const err = (text: string) => new Fault("runtime/type", "Error", text);

/** A KeywordArgumentsValue: the engine passes keyword arguments as one trailing object. */
export class KwArgs extends PyDict {
  override get typeName(): string {
    return "KeywordArgumentsValue";
  }
}

/** The engine's argument list for a FunctionValue. */
export function engineArgs(a: CallArgs): Value[] {
  if (!a.kwargs?.size) return a.args;
  const kw = new KwArgs();
  for (const [k, v] of a.kwargs) kw.set(k, v);
  return [...a.args, kw];
}

/** `args.at(i)`, or the keyword of that name (the engine's `args.at(i) ?? kwargs.get(name)`). */
export function argOr(a: CallArgs, i: number, name: string): Value | undefined {
  return a.args[i] ?? a.kwargs?.get(name);
}

function fn(name: string, f: (args: Value[], a: CallArgs) => Value): BuiltinFunction {
  return new BuiltinFunction(name, (_rt, a) => f(engineArgs(a), a));
}

/** utils.ts titleCase: an upper-case letter after every ASCII word boundary. */
export const titleCase = (s: string) => s.replace(/\b\w/g, (c) => c.toUpperCase());

/** utils.ts replace: `count` occurrences (all when null or negative). */
export function replaceAll(s: string, old: string, by: string, count: bigint | null): string {
  if (count === 0n) return s;
  let remaining = count === null || count < 0n ? Infinity : Number(count);
  const pattern = old === "" ? new RegExp("(?=)", "gu") : new RegExp(old.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gu");
  return s.replaceAll(pattern, (m) => (remaining-- > 0 ? by : m));
}

function affix(name: "startswith" | "endswith", self: string, args: Value[]): boolean {
  if (args.length === 0) throw err(`${name}() requires at least one argument`);
  const test = (p: string) => (name === "startswith" ? self.startsWith(p) : self.endsWith(p));
  const p = args[0];
  if (typeof p === "string") return test(p);
  const items = arrayOf(p);
  if (!items) throw err(`${name}() argument must be a string or tuple of strings`);
  return items.some((x) => {
    if (typeof x !== "string") throw err(`${name}() tuple elements must be strings`);
    return test(x);
  });
}

function split(self: string, args: Value[]): Value {
  const sep = args[0] ?? null;
  if (!(typeof sep === "string" || sep === null)) throw err("sep argument must be a string or null");
  const maxsplit = args[1] ?? -1n;
  if (typeof maxsplit !== "bigint") throw err("maxsplit argument must be a number");
  const max = Number(maxsplit);
  let result: string[] = [];
  if (sep === null) {
    const text = self.trimStart();
    for (const m of text.matchAll(/\S+/g)) {
      if (max >= 0 && result.length >= max) {
        result.push(m[0] + text.slice(m.index + m[0].length));
        break;
      }
      result.push(m[0]);
    }
  } else {
    if (sep === "") throw err("empty separator");
    result = self.split(sep);
    if (max >= 0 && result.length > max) result.push(result.splice(max).join(sep));
  }
  return result;
}

function replace(self: string, args: Value[]): Value {
  if (args.length < 2) throw err("replace() requires at least two arguments");
  const [old, by] = args;
  if (typeof old !== "string" || typeof by !== "string") throw err("replace() arguments must be strings");
  let count: Value = null;
  if (args.length > 2) count = args[2] instanceof KwArgs ? (args[2].get("count") ?? null) : args[2];
  if (!(typeof count === "bigint" || count === null)) throw err("replace() count argument must be a number or null");
  return replaceAll(self, old, by, count);
}

function stringMember(s: string, name: string): Value | undefined {
  switch (name) {
    case "upper":
      return fn(name, () => s.toUpperCase());
    case "lower":
      return fn(name, () => s.toLowerCase());
    case "strip":
      return fn(name, () => s.trim());
    case "title":
      return fn(name, () => titleCase(s));
    case "capitalize":
      return fn(name, () => s.charAt(0).toUpperCase() + s.slice(1));
    case "length":
      return BigInt(s.length);
    case "rstrip":
      return fn(name, () => s.trimEnd());
    case "lstrip":
      return fn(name, () => s.trimStart());
    case "startswith":
    case "endswith":
      return fn(name, (args) => affix(name, s, args));
    case "split":
      return fn(name, (args) => split(s, args));
    case "replace":
      return fn(name, (args) => replace(s, args));
  }
  return undefined;
}

/** runtime.ts compareRuntimeValues (sort, dictsort). */
export function compareValues(a: Value, b: Value, caseSensitive: boolean): number {
  if (a === null && b === null) return 0;
  if (a === null || b === null) throw err(`Cannot compare ${typeOf(a)} with ${typeOf(b)}`);
  if (a instanceof Undefined && b instanceof Undefined) return 0;
  if (a instanceof Undefined || b instanceof Undefined) throw err(`Cannot compare ${typeOf(a)} with ${typeOf(b)}`);
  const numLike = (v: Value): v is Int | number | boolean => isNumeric(v) || typeof v === "boolean";
  if (numLike(a) && numLike(b)) {
    const x = num(a);
    const y = num(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeOf(a) !== typeOf(b)) throw err(`Cannot compare different types: ${typeOf(a)} and ${typeOf(b)}`);
  if (typeof a === "string" && typeof b === "string") {
    const x = caseSensitive ? a : a.toLowerCase();
    const y = caseSensitive ? b : b.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  throw err(`Cannot compare type: ${typeOf(a)}`);
}

function dictsort(entries: [string, Value][], args: Value[]): Value {
  let kwargs = new Map<string, Value>();
  const positional = args.filter((x) => {
    if (x instanceof KwArgs) {
      kwargs = new Map(x.entries() as Iterable<[string, Value]>);
      return false;
    }
    return true;
  });
  const caseSensitive = positional[0] ?? kwargs.get("case_sensitive") ?? false;
  if (typeof caseSensitive !== "boolean") throw err("case_sensitive must be a boolean");
  const by = positional[1] ?? kwargs.get("by") ?? "key";
  if (typeof by !== "string") throw err("by must be a string");
  if (by !== "key" && by !== "value") throw err("by must be either 'key' or 'value'");
  const reverse = positional[2] ?? kwargs.get("reverse") ?? false;
  if (typeof reverse !== "boolean") throw err("reverse must be a boolean");
  const i = by === "key" ? 0 : 1;
  return entries.map(([k, v]) => [k, v]).sort((x, y) => (reverse ? -1 : 1) * compareValues(x[i], y[i], caseSensitive));
}

function objectMember(obj: PyDict | LoopContext, name: string): Value | undefined {
  const entries = () => entriesOf(obj)!;
  switch (name) {
    case "get":
      return fn(name, ([key, dflt]) => {
        if (key === undefined) throw new Fault("runtime/type", "TypeError", "Cannot read properties of undefined (reading 'type')");
        if (typeof key !== "string") throw err(`Object key must be a string: got ${typeOf(key)}`);
        return entries().find(([k]) => k === key)?.[1] ?? dflt ?? null;
      });
    case "items":
      return fn(name, () => entries().map(([k, v]) => [k, v]));
    case "keys":
      return fn(name, () => entries().map(([k]) => k));
    case "values":
      return fn(name, () => entries().map(([, v]) => v));
    case "dictsort":
      return fn(name, (args) => dictsort(entries(), args));
  }
  return undefined;
}

/** `value.builtins.get(name)`: what a member access finds when the value has no such key. */
export function memberBuiltin(obj: Value, name: string): Value | undefined {
  if (typeof obj === "string") return stringMember(obj, name);
  if (arrayOf(obj)) return name === "length" ? BigInt(arrayOf(obj)!.length) : undefined;
  if (obj instanceof PyDict || obj instanceof LoopContext) return objectMember(obj, name);
  return undefined;
}

// ------------------------------------------------------------ globals

/** A JS function made a FunctionValue (convertToRuntimeValues): it sees the raw JS values. */
function jsValue(v: Value | undefined): unknown {
  if (v === undefined || v === null || v instanceof Undefined) return undefined;
  if (isInt(v)) return num(v);
  return v;
}

/** What a JS function returns, as a runtime value: integral numbers are integers. */
function fromJs(x: unknown): Value {
  if (x === undefined || x === null) return null;
  if (typeof x === "number") return Number.isInteger(x) ? intResult(x) : x;
  if (Array.isArray(x)) return x.map(fromJs);
  return x as Value;
}

function range(rt: Runtime, a: CallArgs): Value {
  const [start, stop, step = 1] = engineArgs(a).map(jsValue);
  if ([start, stop, step].some((x) => x !== undefined && typeof x !== "number"))
    throw Fault.notReproduced("range() over non-numbers runs JavaScript's coercions");
  let lo = start as number;
  let hi = stop as number | undefined;
  if (hi === undefined) {
    hi = lo;
    lo = 0;
  }
  if (step === 0) throw err("range() step must not be zero");
  const out: number[] = [];
  const st = step as number;
  // The list is built whole: its length is work (steps) and a size (output) before it is.
  const length = Math.max(0, Math.ceil((hi - lo) / st));
  rt.tick(length);
  rt.checkSize(length);
  for (let i = lo; st > 0 ? i < hi : i > hi; i += st) out.push(i);
  return fromJs(out);
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** utils.ts strftime: only %Y %m %d %b %B %H %M %%; month names in the host's locale (English here). */
export function strftime(format: string, t: WallClock): string {
  const pad2 = (n: number) => (n < 10 ? "0" + n : String(n));
  return format.replace(/%[YmdbBHM%]/g, (tok) => {
    switch (tok) {
      case "%Y":
        return String(t.year);
      case "%m":
        return pad2(t.month);
      case "%d":
        return pad2(t.day);
      case "%b":
        return MONTHS[t.month - 1].slice(0, 3);
      case "%B":
        return MONTHS[t.month - 1];
      case "%H":
        return pad2(t.hour);
      case "%M":
        return pad2(t.minute);
    }
    return "%";
  });
}

function namespace(a: CallArgs): Value {
  if (a.args.length > 1) throw err(`namespace expected at most 1 argument, got ${a.args.length}`);
  const ns = new Namespace();
  const source = a.args[0];
  if (source !== undefined) {
    if (source instanceof PyDict) for (const [k, v] of source.entries()) ns.attrs.set(k as string, v);
    else if (arrayOf(source)) {
      for (const pair of arrayOf(source)!) {
        const kv = typeof pair === "string" ? Array.from(pair) : arrayOf(pair);
        if (!kv || kv.length !== 2) throw err("namespace expected an object or an iterable of [key, value] pairs");
        if (typeof kv[0] !== "string") throw err("namespace keys must be strings");
        ns.attrs.set(kv[0], kv[1]);
      }
    } else throw err(`'${typeOf(source)}' object is not iterable`);
  }
  for (const [k, v] of a.kwargs ?? []) ns.attrs.set(k, v);
  return ns;
}

export const hfGlobals: Readonly<Record<string, Value>> = {
  true: true,
  false: false,
  none: null,
  True: true,
  False: false,
  None: null,
  raise_exception: new BuiltinFunction("raise_exception", (_rt, a) => {
    const m = jsValue(engineArgs(a)[0]);
    throw new Fault("runtime/raise-exception", "Error", m === undefined ? "" : raw(m as Value));
  }),
  range: new BuiltinFunction("range", (rt, a) => range(rt, a)),
  strftime_now: new BuiltinFunction("strftime_now", (rt, a) => {
    const f = jsValue(engineArgs(a)[0]);
    if (typeof f !== "string") throw Fault.notReproduced("strftime_now of a non-string runs JavaScript's coercions");
    return strftime(f, rt.now());
  }),
  namespace: new BuiltinFunction("namespace", (_rt, a) => namespace(a)),
};
