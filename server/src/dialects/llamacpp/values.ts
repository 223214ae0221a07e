// llama.cpp's value model (common/jinja/value.h) on the interpreter's values: None → null, Boolean →
// boolean, Integer → bigint held in int64, Float → number, String → LStr, Array → Value[], Tuple →
// Tuple, Object → PyDict (and the `loop` object, which has no builtins), Function → Callable,
// Undefined → Undefined carrying llama's hint. What each type prints as, how it reads as a bool, an
// int, a float or a string, and the type names its error messages use all live here.
import { Callable, type CauseCode, Fault, LoopContext, PyDict, PyObject, Tuple, Undefined, type Value } from "../../interpreter/kit";
import { llamaFloatString } from "./cDouble";
import { isStr, partsOf, strOf, type LStr } from "./strings";

/** A keyword argument as llama passes it: a value of its own in the positional list (value_kwarg_t). */
export class KwArg extends PyObject {
  constructor(
    readonly key: string,
    readonly value: Value,
  ) {
    super();
  }
  get typeName(): string {
    return "KwArg";
  }
}

/** A lookup's value, or `fallback()` when there is none (None is a value: `??` would skip it). */
export function present(v: Value | undefined, fallback: () => Value): Value {
  return v !== undefined ? v : fallback();
}

export function fault(text: string, code: CauseCode = "runtime/error"): Fault {
  return new Fault(code, null, text);
}

/** not_implemented_exception: the engine has the name but throws "NotImplemented: …". */
export function notImplemented(what: string): Fault {
  return fault(`NotImplemented: ${what}`, "runtime/unsupported");
}

const hints = new WeakMap<Undefined, string>();

/** value_undefined_t(hint): the hint shows in type names, "Undefined (hint: 'x')". */
export function undef(hint = ""): Undefined {
  const u = Undefined.hint(hint ? `'${hint}' is undefined` : "undefined");
  hints.set(u, hint);
  return u;
}

function hintOf(u: Undefined): string {
  return hints.get(u) ?? u.variable ?? "";
}

// ------------------------------------------------------------ int64

export const INT64_MIN = -(1n << 63n);
const TWO63 = 2 ** 63;

/** static_cast<int64_t>(double) on x86-64: NaN, ±inf and out-of-range values become INT64_MIN. */
export function castInt(x: number): bigint {
  return Number.isFinite(x) && x >= -TWO63 && x < TWO63 ? BigInt(Math.trunc(x)) : INT64_MIN;
}

/** value_int_t's val_flt: the double, or ±inf when the double does not round-trip to the int. */
function intAsFloat(i: bigint): number {
  const f = Number(i);
  return f < TWO63 && BigInt(f) === i ? f : i < 0n ? -Infinity : Infinity;
}

// ------------------------------------------------------------ classification

export const isInt = (v: Value): v is bigint => typeof v === "bigint";
export const isNumeric = (v: Value): v is bigint | number => typeof v === "bigint" || typeof v === "number";
/** value_array_t, which a Tuple also is. */
export const isArray = (v: Value): v is Value[] | Tuple => Array.isArray(v) || v instanceof Tuple;
export const isObject = (v: Value): v is PyDict | LoopContext => v instanceof PyDict || v instanceof LoopContext;
export const isFunc = (v: Value): v is Callable => v instanceof Callable && !(v instanceof LoopContext);

export function itemsOf(v: Value[] | Tuple): readonly Value[] {
  return Array.isArray(v) ? v : v.items;
}

/** The fields of llama's `loop` object, in the order for_statement inserts them. */
const LOOP_FIELDS = ["index", "index0", "revindex", "revindex0", "first", "last", "length", "previtem", "nextitem"];

export function loopField(loop: LoopContext, name: string): Value | undefined {
  if (!LOOP_FIELDS.includes(name)) return undefined;
  const v = loop.attr(name)!;
  return v instanceof Undefined ? undef(name) : v;
}

/** An object's entries in order; `loop` is an object of its fields. */
export function entriesOf(o: PyDict | LoopContext): [Value, Value][] {
  return o instanceof PyDict ? Array.from(o.entries()) : LOOP_FIELDS.map((k) => [k, loopField(o, k)!]);
}

/** value_t::type(): the names error messages quote. */
export function typeOf(v: Value): string {
  if (v === null) return "None";
  switch (typeof v) {
    case "boolean":
      return "Boolean";
    case "bigint":
      return "Integer";
    case "number":
      return "Float";
    case "string":
      return "String";
  }
  if (Array.isArray(v)) return "Array";
  if (isStr(v)) return "String";
  if (v instanceof Tuple) return "Tuple";
  if (isObject(v)) return "Object";
  if (v instanceof Undefined) {
    const h = hintOf(v);
    return h ? `Undefined (hint: '${h}')` : "Undefined";
  }
  if (v instanceof KwArg) return "KwArg";
  return "Function";
}

// ------------------------------------------------------------ conversions

/** value_t::as_bool() */
export function asBool(v: Value): boolean {
  if (v === null || v instanceof Undefined) return false;
  switch (typeof v) {
    case "boolean":
      return v;
    case "bigint":
      return v !== 0n;
    case "number":
      return v !== 0;
    case "string":
      return v.length > 0;
  }
  if (isStr(v)) return strOf(v).length > 0;
  if (isArray(v)) return itemsOf(v).length > 0;
  if (v instanceof PyDict) return v.size > 0;
  if (v instanceof LoopContext) return true;
  throw fault(`${typeOf(v)} is not a bool value`, "runtime/type");
}

/** value_t::as_int(): Integer, Float (truncated; 0 when not finite) and Boolean have one. */
export function asInt(v: Value): bigint {
  if (typeof v === "bigint") return v;
  if (typeof v === "number") return Number.isFinite(v) ? castInt(v) : 0n;
  if (typeof v === "boolean") return v ? 1n : 0n;
  throw fault(`${typeOf(v)} is not an int value`, "runtime/type");
}

/** value_t::as_float() (a Boolean has none, although it has an int). */
export function asFloat(v: Value): number {
  if (typeof v === "bigint") return intAsFloat(v);
  if (typeof v === "number") return v;
  throw fault(`${typeOf(v)} is not a float value`, "runtime/type");
}

/** value_t::as_string(): what `~`, `+` and `|string` use. */
export function asString(v: Value): LStr {
  if (isStr(v)) return v;
  if (v === null) return "None";
  switch (typeof v) {
    case "boolean":
      return v ? "True" : "False";
    case "bigint":
      return v.toString();
    case "number":
      return llamaFloatString(v);
  }
  if (Array.isArray(v)) return `[${v.map(repr).join(", ")}]`;
  if (v instanceof Tuple) return `(${v.items.map(repr).join(", ")}${v.items.length === 1 ? "," : ""})`;
  if (isObject(v))
    return `{${entriesOf(v)
      .map(([k, x]) => `${repr(k)}: ${repr(x)}`)
      .join(", ")}}`;
  throw fault(`${typeOf(v)} is not a string value`, "runtime/type");
}

/** value_to_string_repr(): how containers show their items. */
export function repr(v: Value): string {
  if (isStr(v)) {
    const s = strOf(v);
    return s.includes("'") ? jsonString(s) : `'${s}'`;
  }
  if (v instanceof Undefined || v instanceof KwArg) return typeOf(v);
  if (isFunc(v)) return `Function<${v.name}>(${boundSelf(v)})`;
  return strOf(asString(v));
}

/** value_func_t::as_repr shows its bound `this` with value_string_t::as_repr ("TMPL:  …\n" per part). */
function boundSelf(f: Callable): string {
  const self = (f as { self?: Value }).self;
  if (self === undefined) return "";
  return isStr(self)
    ? partsOf(self)
        .map((p) => `TMPL:  ${p}\n`)
        .join("")
    : repr(self);
}

/** A JSON string literal the way value_to_json writes one (bytes ≥ 0x80 and 0x7f stay raw). */
export function jsonString(s: string): string {
  let out = '"';
  for (const c of s) {
    const code = c.charCodeAt(0);
    if (c === '"') out += '\\"';
    else if (c === "\\") out += "\\\\";
    else if (c === "\b") out += "\\b";
    else if (c === "\f") out += "\\f";
    else if (c === "\n") out += "\\n";
    else if (c === "\r") out += "\\r";
    else if (c === "\t") out += "\\t";
    else if (code < 0x20) out += "\\u" + code.toString(16).padStart(4, "0");
    else out += c;
  }
  return out + '"';
}

/**
 * gather_string_parts_recursive(): the parts `{{ v }}` writes — a string's own parts, a number or
 * boolean as one, a list item by item, nothing for None, objects and functions.
 */
export function printedParts(v: Value): string[] {
  if (isStr(v)) return [...partsOf(v)];
  if (typeof v === "bigint" || typeof v === "number" || typeof v === "boolean") return [strOf(asString(v))];
  if (isArray(v)) return itemsOf(v).flatMap(printedParts);
  return [];
}

export function printed(v: Value): string {
  return printedParts(v).join("");
}
