// minja's builtins (Context::builtins): one namespace for globals and filters — `x | f(a)` calls the
// global `f` with `(x, a)` — so every filter here is also callable as a function, and a name that is
// not here is "Value is not callable: null" (micro:str-title-capitalize, micro:replace-filter …).
// The harness that made the corpus added `strftime_now` to the context, pinned.
import {
  BuiltinFunction,
  type CallArgs,
  Fault,
  type FilterFn,
  Namespace,
  PyRange,
  type Runtime,
  strftime,
  type Value,
} from "../../interpreter/kit";
import { ANY, expectArgs, required, simpleArgs } from "./args";
import { asBool, asInt, asString, contains, less, repr, sizeOf } from "./coerce";
import { asciiLower, asciiUpper, stripBytes } from "./methods";
import { dump, toStr } from "./print";
import { arrayItems, eq, isHashable, isMinjaNull, isObject, objectEntries, truthy } from "./values";

type Builtin = (rt: Runtime, a: CallArgs) => Value;

/** A `simple_function`: named parameters, then `fn` over the ones that were passed. */
function simple(name: string, params: readonly string[], fn: (args: Map<string, Value>, rt: Runtime) => Value): Builtin {
  return (rt, a) => fn(simpleArgs(name, params, a), rt);
}

function arrayArg(v: Value, message: string): Value[] {
  const items = arrayItems(v);
  if (!items) throw Fault.type(message);
  return items;
}

/** `get<T>(key, default)` of simple_function's argument object. */
function opt<T>(args: Map<string, Value>, name: string, dflt: T, as: (v: Value) => T): T {
  const v = args.get(name);
  return v === undefined ? dflt : as(v);
}

function htmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&apos;" })[c]!);
}

function charTransform(name: string, fn: (s: string) => string): Builtin {
  return simple(name, ["text"], (args) => {
    const t = required(args, "text");
    return isMinjaNull(t) ? t : fn(asString(t));
  });
}

function join(items: Value, sep: string): string {
  return arrayArg(items, `object is not iterable: ${repr(items)}`)
    .map(toStr)
    .join(sep);
}

/** `context->get(name)` for select/reject/map/selectattr: a builtin by name (the context's own names are not reproduced). */
function lookup(name: Value, what: string): Builtin {
  if (typeof name === "string" && Object.hasOwn(BUILTINS, name)) return BUILTINS[name];
  throw Fault.type(`Undefined ${what}: ${repr(name)}`);
}

function selectOrReject(select: boolean): Builtin {
  return (rt, a) => {
    expectArgs(select ? "select" : "reject", a, [2, ANY], [0, 0]);
    const [items, name, ...extra] = a.args;
    if (isMinjaNull(items)) return [];
    const list = arrayArg(items, `object is not iterable: ${repr(items)}`);
    const f = lookup(name, "filter");
    return list.filter((x) => truthy(f(rt, { args: [x, ...extra], kwargs: null })) === select);
  };
}

function selectOrRejectAttr(select: boolean): Builtin {
  return (rt, a) => {
    expectArgs(select ? "selectattr" : "rejectattr", a, [2, ANY], [0, 0]);
    const [items, attrName, testName, ...extra] = a.args;
    if (isMinjaNull(items)) return [];
    const list = arrayArg(items, `object is not iterable: ${repr(items)}`);
    const attr = asString(attrName);
    const get = (x: Value) => rt.dialect.ops.getitem(x, attr, rt);
    // Without a test minja returns the attribute values, unfiltered.
    if (testName === undefined) return list.map(get);
    const test = lookup(testName, "test");
    return list.filter((x) => truthy(test(rt, { args: [get(x), ...extra], kwargs: null })) === select);
  };
}

function map(rt: Runtime, a: CallArgs): Value {
  const kw = a.kwargs ?? new Map<string, Value>();
  const [items, name, ...extra] = a.args;
  const each = (f: (x: Value) => Value) => Array.from({ length: sizeOf(items) }, (_, i) => f(rt.dialect.ops.getitem(items, BigInt(i), rt)));
  if (a.args.length === 1 && ((kw.has("attribute") && kw.size === 1) || (kw.has("default") && kw.size === 2))) {
    const attr = kw.get("attribute") ?? null;
    const dflt = kw.get("default") ?? null;
    return each((x) => {
      const v = arrayItems(x) || isObject(x) ? rt.dialect.ops.getitem(x, attr, rt) : null;
      return isMinjaNull(v) ? dflt : v;
    });
  }
  if (kw.size === 0 && a.args.length >= 2) {
    const f = lookup(name, "filter");
    return each((x) => f(rt, { args: [x, ...extra], kwargs: null }));
  }
  throw Fault.type("Invalid or unsupported arguments for map");
}

function indent(args: Map<string, Value>): Value {
  const text = asString(required(args, "text"));
  const first = opt(args, "first", false, asBool);
  const pad = " ".repeat(Number(opt(args, "indent", 0n, asInt)));
  // std::getline: "a\n" is one line, "" none; the final newline is added back.
  const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
  const out = lines.map((l, i) => (i > 0 || first ? pad : "") + l).join("\n");
  return text.endsWith("\n") ? out + "\n" : out;
}

function range(_rt: Runtime, a: CallArgs): Value {
  const set: (bigint | undefined)[] = [undefined, undefined, undefined];
  if (a.args.length > 3) throw Fault.notReproduced("minja writes past its range() arguments here");
  if (a.args.length === 1) set[1] = asInt(a.args[0]);
  else a.args.forEach((v, i) => (set[i] = asInt(v)));
  for (const [k, v] of a.kwargs ?? []) {
    const i = ["start", "end", "step"].indexOf(k);
    if (i < 0) throw Fault.type(`Unknown argument ${k} for function range`);
    if (set[i] !== undefined) throw Fault.type(`Duplicate argument ${k} for function range`);
    set[i] = asInt(v);
  }
  if (set[1] === undefined) throw Fault.type("Missing required argument 'end' for function range");
  const [start, end, step] = [set[0] ?? 0n, set[1], set[2] ?? 1n];
  const out: Value[] = [];
  if (step === 0n) throw Fault.notReproduced("minja loops forever on range() with step 0");
  // The list is built whole: its length is work (steps) and a size (output) before it is.
  const length = new PyRange(start, end, step).length;
  _rt.tick(length);
  _rt.checkSize(length);
  for (let i = start; step > 0n ? i < end : i > end; i += step) out.push(i);
  return out;
}

function toInt(v: Value): bigint {
  if (isMinjaNull(v)) return 0n;
  if (typeof v === "boolean") return v ? 1n : 0n;
  if (typeof v === "bigint") return v;
  if (typeof v === "number") return asInt(v);
  // std::stol: optional leading whitespace and sign, then digits; anything else, or a value outside a long
  // (out_of_range), is 0. The digits past a long's 19 are never converted.
  if (typeof v === "string") {
    const m = /^[ \t\n\v\f\r]*([+-]?)0*([0-9]+)/.exec(v);
    if (!m || m[2].length > 19) return 0n;
    const n = BigInt(m[1] + m[2]);
    return n === BigInt.asIntN(64, n) ? n : 0n;
  }
  return 0n;
}

export const BUILTINS: Readonly<Record<string, Builtin>> = {
  raise_exception: simple("raise_exception", ["message"], (args) => {
    throw new Fault("runtime/raise-exception", null, asString(required(args, "message")));
  }),
  tojson: simple("tojson", ["value", "indent"], (args, rt) => {
    const value = required(args, "value");
    const indent = Number(opt(args, "indent", -1n, asInt));
    rt.checkSize(indent);
    rt.checkPrinted(value, Math.max(0, indent));
    return dump(value, { json: true, indent });
  }),
  items: simple("items", ["object"], (args) => {
    if (!args.has("object")) return [];
    const entries = objectEntries(args.get("object")!);
    if (!entries) throw Fault.type("Can only get item pairs from a mapping");
    return entries.map(([k, v]) => [k, v]);
  }),
  last: simple("last", ["items"], (args) => {
    const items = arrayArg(required(args, "items"), "object is not a list");
    return items.length ? items[items.length - 1] : null;
  }),
  trim: simple("trim", ["text"], (args) => {
    const t = required(args, "text");
    return isMinjaNull(t) ? t : stripBytes(asString(t), "", true, true);
  }),
  lower: charTransform("lower", asciiLower),
  upper: charTransform("upper", asciiUpper),
  default: (_rt, a) => {
    expectArgs("default", a, [2, 3], [0, 1]);
    const [value, dflt] = a.args;
    const flag = a.args.length === 3 ? a.args[2] : (a.kwargs?.get("boolean") ?? null);
    const boolean = isMinjaNull(flag) ? false : asBool(flag);
    return boolean ? (truthy(value) ? value : dflt) : isMinjaNull(value) ? dflt : value;
  },
  e: simple("escape", ["text"], (args) => htmlEscape(asString(required(args, "text")))),
  escape: simple("escape", ["text"], (args) => htmlEscape(asString(required(args, "text")))),
  joiner: simple("joiner", ["sep"], (args) => {
    const sep = opt(args, "sep", "", asString);
    let first = true;
    return new BuiltinFunction("joiner", (_r, a) => {
      simpleArgs("", [], a);
      if (!first) return sep;
      first = false;
      return "";
    });
  }),
  count: simple("count", ["items"], (args) => BigInt(sizeOf(required(args, "items")))),
  dictsort: simple("dictsort", ["value"], (args) => {
    if (args.size !== 1) throw Fault.type("dictsort expects exactly 1 argument (TODO: fix implementation)");
    const v = required(args, "value");
    const entries = objectEntries(v);
    if (!entries) throw Fault.type(`Value is not an object: ${repr(v)}`);
    return entries.sort(([a], [b]) => (less(a, b, false) ? -1 : less(b, a, false) ? 1 : 0)).map(([k, x]) => [k, x]);
  }),
  join: simple("join", ["items", "d"], (args) => {
    const sep = opt(args, "d", "", asString);
    if (args.has("items")) return join(args.get("items")!, sep);
    return new BuiltinFunction("join", (_r, a) => {
      const items = required(simpleArgs("", ["items"], a), "items");
      if (!truthy(items) || !arrayItems(items)) throw Fault.type(`join expects an array for items, got: ${repr(items)}`);
      return join(items, sep);
    });
  }),
  namespace: (_rt, a) => {
    expectArgs("namespace", a, [0, 0], [0, ANY]);
    const ns = new Namespace();
    for (const [k, v] of a.kwargs ?? []) ns.attrs.set(k, v);
    return ns;
  },
  equalto: simple("equalto", ["expected", "actual"], (args) => eq(required(args, "actual"), required(args, "expected"))),
  "==": simple("equalto", ["expected", "actual"], (args) => eq(required(args, "actual"), required(args, "expected"))),
  length: simple("length", ["items"], (args) => BigInt(sizeOf(required(args, "items")))),
  safe: simple("safe", ["value"], (args) => toStr(required(args, "value"))),
  string: simple("string", ["value"], (args) => toStr(required(args, "value"))),
  int: simple("int", ["value"], (args) => toInt(required(args, "value"))),
  list: simple("list", ["items"], (args) => arrayArg(required(args, "items"), "object is not iterable")),
  in: simple("in", ["item", "items"], (args) => contains(required(args, "items"), required(args, "item"))),
  unique: simple("unique", ["items"], (args) => {
    const items = arrayArg(required(args, "items"), "object is not iterable");
    const out: Value[] = [];
    for (const x of items) {
      if (!isHashable(x)) throw Fault.type(`Unsupported type for hashing: ${repr(x)}`);
      if (!out.some((y) => eq(x, y))) out.push(x);
    }
    return out;
  }),
  select: selectOrReject(true),
  reject: selectOrReject(false),
  map,
  indent: simple("indent", ["text", "indent", "first"], indent),
  selectattr: selectOrRejectAttr(true),
  rejectattr: selectOrRejectAttr(false),
  range,
  strftime_now: simple("strftime_now", ["format"], (args, rt) => strftime(asString(required(args, "format")), rt.now())),
};

/** The globals table: each builtin as a callable value. */
export const minjaGlobals: Readonly<Record<string, Value>> = Object.fromEntries(
  Object.entries(BUILTINS).map(([name, fn]) => [name, new BuiltinFunction(name, fn)]),
);

/** The filters table: `x | f(a)` is `f(x, a)`. */
export const minjaFilters: Readonly<Record<string, FilterFn>> = Object.fromEntries(
  Object.entries(BUILTINS).map(([name, fn]) => [
    name,
    (rt: Runtime, v: Value, a: CallArgs) => fn(rt, { args: [v, ...a.args], kwargs: a.kwargs }),
  ]),
);
