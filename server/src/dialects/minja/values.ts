// minja's value semantics (class minja::Value): nlohmann JSON primitives, shared arrays and ordered
// objects, callables. Undefined does not exist — an unknown name is null — and a tuple is an array.
// Strings are UTF-8 bytes, which matters for length, slicing and iteration.
import { Callable, Fault, LoopContext, Namespace, PyDict, Tuple, Undefined, type Value } from "../../interpreter/kit";

export function isMinjaNull(v: Value): boolean {
  return v === null || v instanceof Undefined;
}

export function isNumber(v: Value): v is bigint | number {
  return typeof v === "bigint" || typeof v === "number";
}

/** An array to minja: lists and tuples. */
export function arrayItems(v: Value): Value[] | null {
  if (Array.isArray(v)) return v;
  if (v instanceof Tuple) return v.items as Value[];
  return null;
}

/** `is_object()`: dicts, namespaces, the loop object, and callables (which carry an empty object). */
export function isObject(v: Value): boolean {
  return v instanceof PyDict || v instanceof Namespace || v instanceof LoopContext || v instanceof Callable;
}

export function isHashable(v: Value): boolean {
  return !arrayItems(v) && !isObject(v);
}

/** `Value::to_bool`: every object is true, even `{}`. */
export function truthy(v: Value): boolean {
  if (isMinjaNull(v)) return false;
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
  const items = arrayItems(v);
  return items ? items.length > 0 : true;
}

/** int64 arithmetic wraps, as C++ does on the usual targets. */
export function wrap(n: bigint): bigint {
  return BigInt.asIntN(64, n);
}

const utf8 = new TextEncoder();

export function byteLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? (i++, 4) : 3;
  }
  return n;
}

/** The UTF-8 bytes of a string, for the operations minja does on bytes. */
export function bytesOf(s: string): Uint8Array {
  return utf8.encode(s);
}

/** Bytes back to text; a cut through a multi-byte character is bytes JS strings cannot hold. */
export function textOf(b: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(b);
  } catch {
    throw Fault.notReproduced("minja splits a multi-byte UTF-8 character here and outputs the raw bytes");
  }
}

/** The keys minja's `loop` object has, in the order ForNode sets them. */
export const LOOP_KEYS = ["length", "cycle", "index", "index0", "revindex", "revindex0", "first", "last", "previtem", "nextitem"] as const;

/** The entries of an object-like value, in minja's order. */
export function objectEntries(v: Value): [Value, Value][] | null {
  if (v instanceof PyDict) return [...v.entries()];
  if (v instanceof Namespace) return [...v.attrs.entries()];
  if (v instanceof LoopContext) return LOOP_KEYS.map((k) => [k, loopAttr(v, k)]);
  if (v instanceof Callable) return [];
  return null;
}

/** `loop.x`: only the keys ForNode sets; previtem/nextitem are null at the ends. */
export function loopAttr(loop: LoopContext, name: string): Value {
  if (!(LOOP_KEYS as readonly string[]).includes(name)) return null;
  const v = loop.attr(name);
  return v === undefined || v instanceof Undefined ? null : v;
}

/** `Value::operator==`: deep, but an element that is falsy never compares equal. */
export function eq(a: Value, b: Value): boolean {
  const aCall = a instanceof Callable;
  const bCall = b instanceof Callable;
  if ((aCall || bCall) && a !== b) return false;
  const xs = arrayItems(a);
  if (xs) {
    const ys = arrayItems(b);
    return ys !== null && xs.length === ys.length && xs.every((x, i) => truthy(x) && truthy(ys[i]) && eq(x, ys[i]));
  }
  const ea = objectEntries(a);
  if (ea) {
    const eb = objectEntries(b);
    if (!eb || ea.length !== eb.length) return false;
    const other = new Map(eb.map(([k, v]) => [primitiveKey(k), v]));
    return ea.every(([k, v]) => truthy(v) && other.has(primitiveKey(k)) && eq(v, other.get(primitiveKey(k))!));
  }
  return primitiveEq(a, isHashable(b) ? b : null);
}

/** nlohmann JSON equality of primitives: numbers by value across int/float, no bool/number mixing. */
export function primitiveEq(a: Value, b: Value): boolean {
  if (isMinjaNull(a) || isMinjaNull(b)) return isMinjaNull(a) && isMinjaNull(b);
  if (isNumber(a) && isNumber(b)) return typeof a === typeof b ? a === b : Number(a) === Number(b);
  return typeof a === typeof b && a === b;
}

function primitiveKey(k: Value): string {
  return typeof k === "string" ? "s" + k : isNumber(k) ? "n" + Number(k) : String(k);
}
