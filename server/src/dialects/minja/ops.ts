// minja's operators and element access (Value::operator+ … and BinaryOpExpr, SubscriptExpr, ForNode,
// destructuring_assign in minja.hpp). Integer `/`, `//` and `%` by zero kill the process (SIGFPE):
// that is an error here (micro:int-division-by-zero, "crash (exit -8)").
import {
  type ArithOp,
  type CompareOp,
  Fault,
  LoopContext,
  type Operators,
  PyDict,
  type Runtime,
  Undefined,
  type Value,
} from "../../interpreter/kit";
import { asDouble, asInt, contains, less, repr, sizeOf } from "./coerce";
import { toStr } from "./print";
import { arrayItems, bytesOf, eq, isHashable, isMinjaNull, loopAttr, objectEntries, rejoined, textOf, truthy, wrap } from "./values";

function crash(what: string): Fault {
  return new Fault("runtime/zero-division", null, `minja crashes here: integer ${what} by zero (SIGFPE)`);
}

function intDiv(a: bigint, b: bigint, what: string): bigint {
  if (b === 0n || (a === -(2n ** 63n) && b === -1n)) throw crash(what);
  return what === "division" ? a / b : a % b;
}

function arith(op: ArithOp, a: Value, b: Value, rt: Runtime): Value {
  const ints = typeof a === "bigint" && typeof b === "bigint";
  switch (op) {
    case "+": {
      if (typeof a === "string" || typeof b === "string") return joined(toStr(a), toStr(b), rt);
      if (ints) return wrap(a + b);
      const xs = arrayItems(a);
      const ys = arrayItems(b);
      if (xs && ys) {
        rt.checkSize(xs.length + ys.length);
        return [...xs, ...ys];
      }
      return asDouble(a) + asDouble(b);
    }
    case "-":
      return ints ? wrap(a - b) : asDouble(a) - asDouble(b);
    case "*":
      if (typeof a === "string" && typeof b === "bigint") {
        if (b <= 0n) return "";
        rt.checkSize(a.length * Number(b));
        return a.repeat(Number(b));
      }
      return ints ? wrap(a * b) : asDouble(a) * asDouble(b);
    case "/":
      // Both ints: C++ integer division (micro:true-division, `3/2` → 1).
      return ints ? intDiv(a, b, "division") : asDouble(a) / asDouble(b);
    case "//":
      return intDiv(asInt(a), asInt(b), "division");
    case "%":
      return intDiv(asInt(a), asInt(b), "modulo");
    case "**":
      // std::pow on doubles: always a float (micro:power → 1024.0).
      return Math.pow(asDouble(a), asDouble(b));
  }
}

/** Two strings joined, refused before it is built when over the output limit. */
function joined(a: string, b: string, rt: Runtime): string {
  rt.checkSize(a.length + b.length);
  return rejoined(a + b);
}

function compare(op: CompareOp, a: Value, b: Value): boolean {
  switch (op) {
    case "==":
      return eq(a, b);
    case "!=":
      return !eq(a, b);
    case "<":
      return less(a, b, false);
    case ">":
      return less(a, b, true);
    case "<=":
      return !less(a, b, true);
    case ">=":
      return !less(a, b, false);
    case "in":
      return contains(b, a);
    case "not in":
      return !contains(b, a);
  }
}

/** SubscriptExpr on a null base. */
function nullBase(obj: Value, key: Value): Fault {
  if (obj instanceof Undefined && obj.variable !== null) return Fault.type(`'${obj.variable}' is not defined`);
  return Fault.type(`Trying to access property '${repr(key)}' on null!`);
}

/** `Value::get(key)`: arrays by integer, objects by key, anything else null. */
function getitem(obj: Value, key: Value): Value {
  if (isMinjaNull(obj)) throw nullBase(obj, key);
  const items = arrayItems(obj);
  if (items) {
    if (typeof key !== "bigint") return null;
    // get<int>() then at(): a negative index counts from the end; out of range is an error.
    const n = BigInt(items.length);
    const i = BigInt.asIntN(32, key);
    const j = i < 0n ? BigInt.asUintN(64, i + n) : i;
    if (j >= n) throw new Fault("runtime/index", null, `vector::_M_range_check: __n (which is ${j}) >= this->size() (which is ${n})`);
    return items[Number(j)];
  }
  if (obj instanceof LoopContext) return typeof key === "string" ? loopAttr(obj, key) : null;
  const entries = objectEntries(obj);
  if (entries) {
    if (!isHashable(key)) throw Fault.type(`Unhashable type: ${repr(obj)}`);
    if (obj instanceof PyDict) return obj.get(key) ?? null;
    const hit = entries.find(([k]) => eq(k, key));
    return hit ? hit[1] : null;
  }
  return null;
}

/**
 * The slice branch of SubscriptExpr: bounds wrap once, are not clamped, and a list read past its end is an error.
 * minja's loop reads each index as it goes, so the first one outside the value ends it: the indices are walked
 * lazily, never collected, or a bound near the least int64 would walk 2^63 of them before the first read.
 */
function slice(obj: Value, start: Value | undefined, stop: Value | undefined, step: Value | undefined): Value {
  const len = BigInt(sizeOf(obj));
  const part = (v: Value | undefined) => (v === undefined ? null : asInt(v));
  const st = part(step) ?? 1n;
  if (st === 0n) throw Fault.value("slice step cannot be zero");
  const wrapIx = (i: bigint) => (i < 0n ? i + len : i);
  const s = part(start);
  const e = part(stop);
  const from = s === null ? (st < 0n ? len - 1n : 0n) : wrapIx(s);
  const to = e === null ? (st < 0n ? -1n : len) : wrapIx(e);
  const indices = function* () {
    for (let i = from; st > 0n ? i < to : i > to; i += st) yield i;
  };
  if (typeof obj === "string") {
    const bytes = bytesOf(obj);
    if (from < to && st === 1n) {
      // substr takes the position as a size_t: a negative one is past any string's end.
      const pos = BigInt.asUintN(64, from);
      if (pos > len)
        throw new Fault("runtime/index", null, `basic_string::substr: __pos (which is ${pos}) > this->size() (which is ${len})`);
      return textOf(bytes.subarray(Number(from), Number(to < len ? to : len)));
    }
    const picked: number[] = [];
    for (const i of indices()) {
      if (i < 0n || i >= len) throw Fault.notReproduced("minja reads outside the string here (undefined behaviour)");
      picked.push(bytes[Number(i)]);
    }
    return textOf(Uint8Array.from(picked));
  }
  const items = arrayItems(obj);
  if (!items) throw Fault.type("Subscripting only supported on arrays and strings");
  const out: Value[] = [];
  for (const i of indices()) {
    if (i < 0n || i >= len)
      throw new Fault(
        "runtime/index",
        null,
        `vector::_M_range_check: __n (which is ${BigInt.asUintN(64, i)}) >= this->size() (which is ${len})`,
      );
    out.push(items[Number(i)]);
  }
  return out;
}

/** ForNode: null iterates as nothing; dicts by key; strings by byte. */
function iterate(v: Value): Iterable<Value> {
  if (isMinjaNull(v)) return [];
  const items = arrayItems(v);
  if (items) return items;
  const entries = objectEntries(v);
  if (entries) return entries.map(([k]) => k);
  if (typeof v === "string") {
    const bytes = bytesOf(v);
    if (bytes.length !== v.length) throw Fault.notReproduced("minja iterates a string by bytes and splits its multi-byte characters");
    return v.split("");
  }
  throw Fault.type(`For loop iterable must be iterable: ${repr(v)}`);
}

function unpack(v: Value, n: number): Value[] {
  const items = arrayItems(v);
  if (!items || items.length !== n) throw Fault.value("Mismatched number of variables and items in destructuring assignment");
  return items;
}

export const minjaOps: Operators = {
  arith: (op, a, b, rt) => arith(op, a, b, rt),
  concat: (a, b, rt) => joined(toStr(a), toStr(b), rt),
  neg: (v) => (typeof v === "bigint" ? wrap(-v) : -asDouble(v)),
  // UnaryOpExpr::Plus returns its operand unchecked.
  pos: (v) => v,
  compare: (op, a, b) => compare(op, a, b),
  truthy,
  // `x.name` is `x['name']` (SubscriptExpr with a string key); `x.name(…)` goes to callMethod.
  getattr: (obj, name) => getitem(obj, name),
  getitem: (obj, key) => getitem(obj, key),
  slice: (obj, start, stop, step) => slice(obj, start, stop, step),
  iterate: (v) => iterate(v),
  unpack: (v, n) => unpack(v, n),
  // BinaryOpExpr: `and` yields a bool (`'a' and 'b'` is True); `or` yields the deciding operand.
  and: (a, right) => truthy(a) && truthy(right()),
};
