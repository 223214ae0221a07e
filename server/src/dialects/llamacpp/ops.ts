// llama.cpp's operators (runtime.cpp: binary_expression::execute_impl, unary_expression) and its two
// notions of equality: `==` is value_t::operator== (equivalent(): 1 == 1.0 == True, lists only when
// every item is immutable, objects in insertion order), while the comparison tests, sort, min and max
// use value_compare() (numbers as doubles, a number against a string as strings, else false).
import { LoopContext, PyDict, type Runtime, Tuple, Undefined, type Value } from "../../interpreter/kit";
import { concat, isStr, limitSizeOf, mkStr, partsOf, strOf, type LStr } from "./strings";
import {
  asBool,
  asFloat,
  asInt,
  asString,
  castInt,
  entriesOf,
  fault,
  isArray,
  isFunc,
  isInt,
  isNumeric,
  isObject,
  itemsOf,
  KwArg,
  loopField,
  typeOf,
} from "./values";

// ------------------------------------------------------------ equality and hashing

/** value_t::is_immutable(): lists and objects are the mutable types. */
function immutable(v: Value): boolean {
  return !(Array.isArray(v) || isObject(v));
}

/** value_t::is_hashable(): containers only when all their items (object: values) are immutable and hashable. */
export function hashable(v: Value): boolean {
  if (v instanceof Undefined || isFunc(v)) return false;
  if (isArray(v)) return itemsOf(v).every((x) => immutable(x) && hashable(x));
  if (isObject(v)) return entriesOf(v).every(([, x]) => immutable(x) && hashable(x));
  return true;
}

/** Integer, Float and Boolean compare through both their int and their float readings. */
function numericLike(v: Value): v is bigint | number | boolean {
  return typeof v === "bigint" || typeof v === "number" || typeof v === "boolean";
}

/** value_t::operator== (equivalent()). */
function equivalent(a: Value, b: Value): boolean {
  if (numericLike(a)) return numericLike(b) && asInt(a) === asInt(b) && numberOf(a) === numberOf(b);
  if (isStr(a)) return isStr(b) && strOf(a) === strOf(b);
  if (a === null) return b === null;
  if (a instanceof Undefined) return b instanceof Undefined;
  if (isArray(a)) {
    if (!isArray(b) || Array.isArray(a) !== Array.isArray(b) || !hashable(a) || !hashable(b)) return false;
    const x = itemsOf(a);
    const y = itemsOf(b);
    return x.length === y.length && x.every((v, i) => equivalent(v, y[i]));
  }
  if (isObject(a)) {
    if (!isObject(b) || !hashable(a) || !hashable(b)) return false;
    const x = entriesOf(a);
    const y = entriesOf(b);
    return x.length === y.length && x.every(([k, v], i) => equivalent(k, y[i][0]) && equivalent(v, y[i][1]));
  }
  if (a instanceof KwArg) return b instanceof KwArg && a.key === b.key && a.value === b.value;
  // Two functions compare equal: the engine compares std::function targets, null for both lambdas.
  return isFunc(b);
}

function numberOf(v: bigint | number | boolean): number {
  return typeof v === "boolean" ? (v ? 1 : 0) : asFloat(v);
}

export type CompareOp = "eq" | "ne" | "lt" | "gt" | "ge";

/** value_compare(): the comparison tests, sort, dictsort, min and max. */
export function valueCompare(a: Value, b: Value, op: CompareOp): boolean {
  if (isNumeric(a) && isNumeric(b)) return cmp(asFloat(a), asFloat(b), op);
  if ((isStr(a) || isStr(b)) && (isStr(a) || isNumeric(a)) && (isStr(b) || isNumeric(b))) {
    return cmp(strOf(asString(a)), strOf(asString(b)), op);
  }
  if (typeof a === "boolean" && typeof b === "boolean") {
    if (op === "eq") return a === b;
    if (op === "ne") return a !== b;
    throw fault("Unsupported comparison operator for bool type", "runtime/type");
  }
  return false;
}

function cmp(x: number | string, y: number | string, op: CompareOp): boolean {
  const c = typeof x === "string" ? compareBytes(x, y as string) : numberOrder(x, y as number);
  switch (op) {
    case "eq":
      return c === 0;
    case "ne":
      return c !== 0;
    case "lt":
      return c < 0;
    case "gt":
      return c > 0;
    case "ge":
      return c >= 0;
  }
}

/** -1, 0, 1, or NaN when either side is NaN (every comparison with it false, != true). */
function numberOrder(x: number, y: number): number {
  return x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN;
}

/** std::string comparison: UTF-8 byte order, which is code point order (JS `<` compares UTF-16 units). */
function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i].codePointAt(0)! < y[i].codePointAt(0)! ? -1 : 1;
  }
  return x.length - y.length;
}

// ------------------------------------------------------------ objects as keyed containers

export function dictKey(k: Value): Value {
  return isStr(k) ? strOf(k) : k;
}

/** value_object_t::has_key(): a mutable or unhashable key throws. */
function hasKey(o: PyDict | LoopContext, key: Value): boolean {
  return objectAt(o, key) !== undefined;
}

export function objectAt(o: PyDict | LoopContext, key: Value): Value | undefined {
  if (!immutable(key) || !hashable(key)) throw fault(`Object key of unhashable type: ${typeOf(key)}`, "runtime/type");
  if (o instanceof LoopContext) return isStr(key) ? loopField(o, strOf(key)) : undefined;
  return o.get(dictKey(key));
}

/** test_is_in(needle, haystack) */
export function isIn(needle: Value, haystack: Value): boolean {
  if (haystack instanceof Undefined) return false;
  if (isArray(haystack)) return itemsOf(haystack).some((x) => equivalent(needle, x));
  if (isStr(haystack)) {
    if (!isStr(needle))
      throw fault(`'in' test expects args[1] as string when args[0] is string, got args[1] as ${typeOf(needle)}`, "runtime/type");
    return strOf(haystack).includes(strOf(needle));
  }
  if (isObject(haystack)) return hasKey(haystack, needle);
  throw fault(`'in' test expects iterable as first argument, got ${typeOf(haystack)}`, "runtime/type");
}

// ------------------------------------------------------------ binary and unary operators

export type BinaryOp = "+" | "-" | "*" | "/" | "%" | "~" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not in";

/** binary_expression::execute_impl after `and`/`or`, branch for branch. */
export function binary(op: BinaryOp, a: Value, b: Value, rt: Runtime): Value {
  if (op === "==") return equivalent(a, b);
  if (op === "!=") return !equivalent(a, b);
  const membership = op === "in" || op === "not in";
  const member = (m: boolean) => (op === "in" ? m : !m);
  const joins = op === "+" || op === "~";
  if (a instanceof Undefined || b instanceof Undefined) {
    if (b instanceof Undefined && membership) return op === "not in";
    if (joins && nullAndString(a, b)) return isStr(a) ? a : b;
    throw fault(`Cannot perform operation ${op} on undefined values`, "runtime/undefined");
  }
  if (a === null || b === null) {
    if (b !== null && membership) return member(isIn(a, b));
    if (joins && nullAndString(a, b)) return isStr(a) ? a : b;
    throw fault("Cannot perform operation on null values", "runtime/type");
  }
  if (isNumeric(a) && isNumeric(b)) {
    const r = arithmetic(op, a, b);
    if (r !== undefined) return r;
  }
  // The engine computes membership before it looks at the operator, so `{} + {}` fails on the key.
  if (isArray(a) && isArray(b)) {
    if (op === "+") {
      rt.checkSize(itemsOf(a).length + itemsOf(b).length);
      return [...itemsOf(a), ...itemsOf(b)];
    }
  } else if (isArray(b)) {
    const m = isIn(a, b);
    if (membership) return member(m);
  }
  if ((isStr(a) || isStr(b)) && joins) return concat(asString(a), asString(b), rt);
  if (op === "*" && ((isStr(a) && isInt(b)) || (isInt(a) && isStr(b))))
    return repeat((isStr(a) ? a : b) as LStr, (isInt(b) ? b : a) as bigint, rt);
  if (isStr(a) && isStr(b) && membership) return member(isIn(a, b));
  if (isObject(b)) {
    const m = isIn(a, b);
    if (membership) return member(m);
  }
  throw fault(`Unknown operator "${op}" between ${typeOf(a)} and ${typeOf(b)}`, "runtime/type");
}

/** The "treat null/undefined as empty string for string concatenation" workaround. */
function nullAndString(a: Value, b: Value): boolean {
  const nullish = (v: Value) => v === null || v instanceof Undefined;
  return (nullish(a) && isStr(b)) || (nullish(b) && isStr(a));
}

/** Integer and Float arithmetic runs on doubles; an Integer result is cast back (x86: INT64_MIN when out of range). */
function arithmetic(op: BinaryOp, a: bigint | number, b: bigint | number): Value | undefined {
  const x = asFloat(a);
  const y = asFloat(b);
  const float = typeof a === "number" || typeof b === "number";
  switch (op) {
    case "+":
    case "-":
    case "*": {
      const r = op === "+" ? x + y : op === "-" ? x - y : x * y;
      return float ? r : castInt(r);
    }
    case "/":
      return x / y;
    case "%":
      return float ? x % y : castInt(x % y);
    case "<":
      return x < y;
    case ">":
      return x > y;
    case ">=":
      return x >= y;
    case "<=":
      return x <= y;
  }
  return undefined;
}

function repeat(s: LStr, times: bigint, rt: Runtime): Value {
  if (times <= 0n) return "";
  rt.checkSize(Math.max(1, limitSizeOf(s)) * Number(times));
  const parts = partsOf(s);
  // every copy keeps its parts: each part of each copy is a step ('x' * 16000000 is 16 million parts)
  const n = Number(times);
  rt.tick(parts.length * n);
  const out: string[] = [];
  for (let i = 0; i < n; i++) for (const p of parts) out.push(p);
  return mkStr(out);
}

export function negate(v: Value): Value {
  if (typeof v === "bigint") return v === -(1n << 63n) ? v : -v;
  if (typeof v === "number") return -v;
  throw fault("Unary - operator requires numeric operand", "runtime/type");
}

export function plus(v: Value): Value {
  if (isNumeric(v)) return v;
  throw fault("Unary + operator requires numeric operand", "runtime/type");
}

export const truthy = asBool;

// ------------------------------------------------------------ loops and unpacking

/**
 * for_statement: Undefined iterates as empty, a string not at all, an object as (key, value) tuples
 * of which a single loop variable gets the key, so `for k, v in d` needs no `.items()`.
 */
export function loopItems(v: Value, targets: number): Value[] {
  if (v instanceof Undefined) return [];
  if (isArray(v)) return [...itemsOf(v)];
  if (isObject(v)) return entriesOf(v).map(([k, x]) => (targets === 1 ? k : new Tuple([k, x])));
  throw fault(`Expected iterable or object type in for loop: got ${typeOf(v)}`, "runtime/type");
}

/** `{% set obj.name = v %}` works on any object (namespace() makes a plain one). */
export function setattr(obj: Value, name: string, v: Value): void {
  if (obj instanceof LoopContext) throw fault("assigning to a loop attribute is not reproduced", "runtime/not-reproduced");
  if (!(obj instanceof PyDict)) throw fault("Cannot assign to member of non-object", "runtime/type");
  obj.set(name, v);
}

export function unpack(v: Value, n: number): Value[] {
  if (!isArray(v)) throw fault(`Cannot unpack non-iterable type: ${typeOf(v)}`, "runtime/type");
  const items = itemsOf(v);
  if (items.length !== n) throw fault(`Too ${n > items.length ? "few" : "many"} items to unpack`, "runtime/value");
  return [...items];
}
