// Python's iteration protocol and len() over template values.
import { DictView, PyDict } from "../dict";
import { Fault } from "../errors";
import { Undefined } from "../undefined";
import { Markup, PyIterator, PyRange, Tuple, typeName, type Value } from "../values";
import { codePoints, pyLen } from "./text";

const EMPTY: readonly Value[] = [];

export function iterate(v: Value): Iterable<Value> {
  if (Array.isArray(v)) return v;
  if (typeof v === "string") return codePoints(v);
  if (v instanceof PyDict) return v.keys();
  if (v instanceof Tuple) return v.items;
  if (v instanceof Undefined) return EMPTY;
  if (v instanceof PyIterator || v instanceof DictView) return v;
  if (v instanceof PyRange) return rangeItems(v);
  if (v instanceof Markup) return codePoints(v.s);
  throw Fault.type(`'${typeName(v)}' object is not iterable`);
}

function* rangeItems(r: PyRange): Iterable<Value> {
  for (let i = 0; i < r.length; i++) yield r.at(i);
}

export function len(v: Value): number {
  if (typeof v === "string") return pyLen(v);
  if (Array.isArray(v)) return v.length;
  if (v instanceof PyDict) return v.size;
  if (v instanceof Tuple) return v.items.length;
  if (v instanceof Undefined) return 0;
  if (v instanceof Markup) return pyLen(v.s);
  if (v instanceof PyRange) return v.length;
  if (v instanceof DictView) return v.dict.size;
  throw Fault.type(`object of type '${typeName(v)}' has no len()`);
}

/** Python's sequence unpacking (`a, b = v`) with its ValueError wording. */
export function unpack(v: Value, n: number): Value[] {
  let items: Value[];
  try {
    items = Array.isArray(v) ? v : [...iterate(v)];
  } catch (e) {
    if (e instanceof Fault && e.code === "runtime/type" && !(v instanceof Undefined)) {
      throw Fault.type(`cannot unpack non-iterable ${typeName(v)} object`);
    }
    throw e;
  }
  if (items.length < n) throw Fault.value(`not enough values to unpack (expected ${n}, got ${items.length})`);
  if (items.length > n) throw Fault.value(`too many values to unpack (expected ${n})`);
  return items;
}
