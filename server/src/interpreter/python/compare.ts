// Python's truthiness, equality, ordering and `in`, with its errors
// (`'<' not supported between instances of 'int' and 'str'`, `argument of type 'NoneType' is not iterable`).
import type { CompareOp } from "../dialect";
import { DictView, PyDict } from "../dict";
import { Fault } from "../errors";
import { Undefined } from "../undefined";
import { Markup, PyIterator, PyRange, Tuple, typeName, type Value } from "../values";
import { isNumber, numCompare } from "./numbers";
import { compareStr } from "./text";

export function truthy(v: Value): boolean {
  switch (typeof v) {
    case "boolean":
      return v;
    case "string":
      return v.length > 0;
    case "bigint":
      return v !== 0n;
    case "number":
      return v !== 0;
  }
  if (v === null) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof PyDict) return v.size > 0;
  if (v instanceof Undefined) return false;
  if (v instanceof Tuple) return v.items.length > 0;
  if (v instanceof Markup) return v.s.length > 0;
  if (v instanceof PyRange) return v.length > 0;
  if (v instanceof DictView) return v.dict.size > 0;
  return true;
}

function strOf(v: Value): string | null {
  return typeof v === "string" ? v : v instanceof Markup ? v.s : null;
}

export function eq(a: Value, b: Value): boolean {
  if (a === b) return !(typeof a === "number" && Number.isNaN(a));
  if (isNumber(a)) return isNumber(b) && numCompare(a, b) === 0;
  const s = strOf(a);
  if (s !== null) return s === strOf(b);
  if (Array.isArray(a)) return Array.isArray(b) && seqEq(a, b);
  if (a instanceof Tuple) return b instanceof Tuple && seqEq(a.items, b.items);
  if (a instanceof PyDict) {
    if (!(b instanceof PyDict) || a.size !== b.size) return false;
    for (const [k, v] of a.entries()) {
      const w = b.get(k);
      if (w === undefined || !eq(v, w)) return false;
    }
    return true;
  }
  if (a instanceof Undefined) return b instanceof Undefined;
  if (a instanceof PyRange) return b instanceof PyRange && rangeEq(a, b);
  return false;
}

function seqEq(a: readonly Value[], b: readonly Value[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!eq(a[i], b[i])) return false;
  return true;
}

function rangeEq(a: PyRange, b: PyRange): boolean {
  const n = a.length;
  if (n !== b.length) return false;
  return n === 0 || (a.start === b.start && (n === 1 || a.step === b.step));
}

/** Python's three-way ordering for `<` & co., or a TypeError for unorderable types. */
export function order(a: Value, b: Value, op: string): number {
  if (a instanceof Undefined) throw a.fault();
  if (b instanceof Undefined) throw b.fault();
  if (isNumber(a) && isNumber(b)) return numCompare(a, b);
  const x = strOf(a);
  const y = strOf(b);
  if (x !== null && y !== null) return compareStr(x, y);
  if ((Array.isArray(a) && Array.isArray(b)) || (a instanceof Tuple && b instanceof Tuple)) {
    const p = Array.isArray(a) ? a : (a as Tuple).items;
    const q = Array.isArray(b) ? b : (b as Tuple).items;
    for (let i = 0; i < Math.min(p.length, q.length); i++) {
      if (!eq(p[i], q[i])) return order(p[i], q[i], op);
    }
    return p.length - q.length;
  }
  throw Fault.type(`'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
}

export function contains(container: Value, item: Value): boolean {
  const s = strOf(container);
  if (s !== null) {
    const t = strOf(item);
    if (t === null) {
      throw Fault.type(`'in <string>' requires string as left operand, not ${typeName(item)}`);
    }
    return s.includes(t);
  }
  if (Array.isArray(container)) return container.some((x) => eq(x, item));
  if (container instanceof PyDict) return container.has(item);
  if (container instanceof Tuple) return container.items.some((x) => eq(x, item));
  if (container instanceof Undefined) return false;
  if (container instanceof DictView) {
    if (container.kind === "keys") return container.dict.has(item);
    for (const x of container) if (eq(x, item)) return true;
    return false;
  }
  if (container instanceof PyRange) {
    for (let i = 0; i < container.length; i++) if (eq(container.at(i), item)) return true;
    return false;
  }
  if (container instanceof PyIterator) {
    for (let r = container.next(); !r.done; r = container.next()) if (eq(r.value, item)) return true;
    return false;
  }
  throw Fault.type(`argument of type '${typeName(container)}' is not iterable`);
}

export function compare(op: CompareOp, a: Value, b: Value): boolean {
  switch (op) {
    case "==":
      return eq(a, b);
    case "!=":
      return !eq(a, b);
    case "<":
      return order(a, b, op) < 0;
    case "<=":
      return order(a, b, op) <= 0;
    case ">":
      return order(a, b, op) > 0;
    case ">=":
      return order(a, b, op) >= 0;
    case "in":
      return contains(b, a);
    case "not in":
      return !contains(b, a);
  }
}
