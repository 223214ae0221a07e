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

// minja's strings are bytes: a slice can cut a multi-byte character, and the pieces still compare, measure
// and concatenate; only output shows the broken bytes. JS strings hold such a byte as a lone low surrogate
// U+DC80..U+DCFF (Python's surrogateescape), which no UTF-8 text decodes to.
const RAW_BYTE = /(?<![\ud800-\udbff])[\udc80-\udcff]/;
const utf8 = new TextEncoder();

const isRawByte = (s: string, i: number) => {
  const c = s.charCodeAt(i);
  return c >= 0xdc80 && c <= 0xdcff && !(i > 0 && s.charCodeAt(i - 1) >= 0xd800 && s.charCodeAt(i - 1) <= 0xdbff);
};

export function byteLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    n += c < 0x80 || isRawByte(s, i) ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? (i++, 4) : 3;
  }
  return n;
}

/** The UTF-8 bytes of a string, for the operations minja does on bytes (a held raw byte is itself). */
export function bytesOf(s: string): Uint8Array {
  if (!RAW_BYTE.test(s)) return utf8.encode(s);
  const out: number[] = [];
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    if (!isRawByte(s, i)) continue;
    out.push(...utf8.encode(s.slice(from, i)), s.charCodeAt(i) - 0xdc00);
    from = i + 1;
  }
  out.push(...utf8.encode(s.slice(from)));
  return Uint8Array.from(out);
}

/** Length of the valid UTF-8 sequence at b[i], or 0. */
function sequenceAt(b: Uint8Array, i: number): number {
  const c = b[i];
  const n = c < 0x80 ? 1 : c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;
  if (n <= 1) return n;
  if (i + n > b.length) return 0;
  for (let k = 1; k < n; k++) if ((b[i + k] & 0xc0) !== 0x80) return 0;
  if (c === 0xe0 && b[i + 1] < 0xa0) return 0; // overlong
  if (c === 0xed && b[i + 1] >= 0xa0) return 0; // surrogates
  if (c === 0xf0 && b[i + 1] < 0x90) return 0;
  if (c === 0xf4 && b[i + 1] >= 0x90) return 0;
  return n;
}

/** Bytes back to text; a cut through a multi-byte character keeps its bytes as raw bytes (see RAW_BYTE). */
export function textOf(b: Uint8Array): string {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    return decoder.decode(b);
  } catch {
    let out = "";
    let from = 0;
    for (let i = 0; i < b.length;) {
      const n = sequenceAt(b, i);
      if (n) {
        i += n;
        continue;
      }
      out += decoder.decode(b.subarray(from, i)) + String.fromCharCode(0xdc00 + b[i]);
      from = ++i;
    }
    return out + decoder.decode(b.subarray(from));
  }
}

/** Text joined from pieces: raw bytes that meet again are the character they were cut from. */
export function rejoined(s: string): string {
  return RAW_BYTE.test(s) ? textOf(bytesOf(s)) : s;
}

/** Text bound for the output: a raw byte there is what minja writes and JS text cannot hold. */
export function outputText(s: string): string {
  if (RAW_BYTE.test(s)) throw Fault.notReproduced("minja splits a multi-byte UTF-8 character here and outputs the raw bytes");
  return s;
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
