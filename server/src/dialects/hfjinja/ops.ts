// @huggingface/jinja's operators and member access (Interpreter.evaluateBinaryExpression,
// evaluateUnaryExpression, evaluateMemberExpression, evaluateSliceExpression, renderFor), in the
// order the engine tries its cases, since the first that applies decides.
import {
  type ArithOp,
  codePoints,
  type CompareOp,
  Fault,
  LoopContext,
  Namespace,
  type Operators,
  PyDict,
  type Runtime,
  Undefined,
  type Value,
} from "../../interpreter/kit";
import { memberBuiltin } from "./builtins";
import { arrayOf, entriesOf, intResult, isNumeric, isUndef, looseEq, num, raw, strictEq, truthy, typeOf, type Int } from "./values";

const err = (text: string) => new Fault("runtime/type", "Error", text);
const syntaxErr = (text: string) => new Fault("runtime/type", "SyntaxError", text);
const unknownOperator = (op: string, a: Value, b: Value) => syntaxErr(`Unknown operator "${op}" between ${typeOf(a)} and ${typeOf(b)}`);

type Op = ArithOp | CompareOp | "~";

function numeric(op: Op, a: Int | number, b: Int | number): Value | undefined {
  const x = num(a);
  const y = num(b);
  const float = typeof a === "number" || typeof b === "number";
  const keep = (r: number): Value => (float ? r : intResult(r));
  switch (op) {
    case "+":
      return keep(x + y);
    case "-":
      return keep(x - y);
    case "*":
      return keep(x * y);
    case "/":
      return x / y;
    case "//":
      return keep(Math.floor(x / y));
    case "%":
      return keep(x % y);
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

function power(a: Int | number | boolean, b: Int | number | boolean): Value {
  const x = num(a);
  const y = num(b);
  if (x === 0 && y < 0) throw err("0.0 cannot be raised to a negative power");
  const r = x ** y;
  if (!Number.isFinite(r)) throw err("Exponentiation result is not a finite real number");
  return typeof a === "number" || typeof b === "number" || y < 0 ? r : intResult(r);
}

/** Everything but `and`/`or`, which the interpreter short-circuits with `truthy`. */
function binary(op: Op, a: Value, b: Value, rt: Runtime): Value {
  const joined = (x: string, y: string) => {
    rt.checkSize(x.length + y.length);
    return x + y;
  };
  if (op === "==") return looseEq(a, b);
  if (op === "!=") return !looseEq(a, b);
  if (isNumeric(a) && isNumeric(b) && op !== "~" && op !== "**") {
    const r = numeric(op, a, b);
    if (r !== undefined) return r;
  } else if (isUndef(a) || isUndef(b)) {
    if (isUndef(b) && (op === "in" || op === "not in")) return op === "not in";
    if (op === "~" && a !== null && b !== null) return joined(isUndef(a) ? "" : raw(a), isUndef(b) ? "" : raw(b));
    throw err(`Cannot perform operation ${op} on undefined values`);
  } else if (a === null || b === null) {
    throw err("Cannot perform operation on null values");
  } else if (op === "~") {
    return joined(raw(a), raw(b));
  } else if (op === "**" && (isNumeric(a) || typeof a === "boolean") && (isNumeric(b) || typeof b === "boolean")) {
    return power(a, b);
  } else if (arrayOf(a) && arrayOf(b)) {
    if (op === "+") {
      rt.checkSize(arrayOf(a)!.length + arrayOf(b)!.length);
      return [...arrayOf(a)!, ...arrayOf(b)!];
    }
  } else if (arrayOf(b) && (op === "in" || op === "not in")) {
    return arrayOf(b)!.some((x) => strictEq(x, a)) === (op === "in");
  }
  if ((typeof a === "string" || typeof b === "string") && op === "+") return joined(raw(a), raw(b));
  if (typeof a === "string" && typeof b === "string" && (op === "in" || op === "not in")) return b.includes(a) === (op === "in");
  if (typeof a === "string" && b instanceof PyDict && (op === "in" || op === "not in")) return b.has(a) === (op === "in");
  throw unknownOperator(op, a, b);
}

function unary(op: "-" | "+", v: Value): Value {
  if (isNumeric(v) || typeof v === "boolean") {
    const r = (op === "-" ? -1 : 1) * num(v);
    return typeof v === "number" ? r : intResult(r);
  }
  throw syntaxErr(`Unknown operator "${op}" for ${typeOf(v)}`);
}

/** evaluateMemberExpression: never an error for a missing name, index or builtin — undefined. */
function member(obj: Value, key: Value): Value {
  const entries = obj instanceof PyDict || obj instanceof Namespace || obj instanceof LoopContext ? entriesOf(obj)! : null;
  let v: Value | undefined;
  if (entries) {
    if (typeof key !== "string") throw err(`Cannot access property with non-string: got ${typeOf(key)}`);
    v = obj instanceof PyDict ? obj.get(key) : entries.find(([k]) => k === key)?.[1];
    if (v === undefined && !(obj instanceof Namespace)) v = memberBuiltin(obj, key);
  } else if (arrayOf(obj) || typeof obj === "string") {
    if (typeof key === "bigint") {
      // Array.prototype.at / String.prototype.at: negative from the end, UTF-16 units for strings.
      const items: readonly Value[] = typeof obj === "string" ? obj.split("") : arrayOf(obj)!;
      v = items.at(Number(key));
    } else if (typeof key === "string") {
      v = memberBuiltin(obj, key);
    } else {
      throw err(`Cannot access property with non-string/non-number: got ${typeOf(key)}`);
    }
  } else {
    if (typeof key !== "string") throw err(`Cannot access property with non-string: got ${typeOf(key)}`);
    v = undefined;
  }
  return v === undefined ? Undefined.member(obj, key) : v;
}

function sliceIndex(v: Value | undefined, what: string): number | undefined {
  if (v === undefined || isUndef(v)) return undefined;
  if (typeof v !== "bigint") throw err(`Slice ${what} must be numeric or undefined`);
  return Number(v);
}

/** utils.ts `slice`: Python's clamping; strings by code point. */
function slice(obj: Value, start: Value | undefined, stop: Value | undefined, step: Value | undefined): Value {
  const items = typeof obj === "string" ? codePoints(obj) : arrayOf(obj);
  if (!items) throw err("Slice object must be an array or string");
  let a = sliceIndex(start, "start");
  let b = sliceIndex(stop, "stop");
  const st = sliceIndex(step, "step") ?? 1;
  const n = items.length;
  const dir = Math.sign(st);
  if (dir >= 0) {
    a = (a ??= 0) < 0 ? Math.max(n + a, 0) : Math.min(a, n);
    b = (b ??= n) < 0 ? Math.max(n + b, 0) : Math.min(b, n);
  } else {
    a = (a ??= n - 1) < 0 ? Math.max(n + a, -1) : Math.min(a, n - 1);
    b = (b ??= -1) < -1 ? Math.max(n + b, -1) : Math.min(b, n - 1);
  }
  const out: Value[] = [];
  // A step of 0 never advances: the engine loops until it runs out of memory.
  if (st === 0 && dir * a < dir * b) throw Fault.notReproduced("the engine loops forever on a slice step of 0");
  for (let i = a; dir * i < dir * b; i += st) out.push(items[i]);
  return typeof obj === "string" ? out.join("") : out;
}

/** renderFor: lists and the keys of a dict; no strings. */
function iterate(v: Value): Iterable<Value> {
  const items = arrayOf(v);
  if (items) return items;
  if (v instanceof PyDict || v instanceof LoopContext) return entriesOf(v)!.map(([k]) => k);
  throw err(`Expected iterable or object type in for loop: got ${typeOf(v)}`);
}

/** `set a, b = …` and `for a, b in …`: an ArrayValue (a TupleValue is one) of the right length. */
function unpack(v: Value, n: number): Value[] {
  const items = arrayOf(v);
  if (!items) throw err(`Cannot unpack non-iterable type: ${typeOf(v)}`);
  if (items.length !== n) throw err(`Too ${n > items.length ? "few" : "many"} items to unpack`);
  return items as Value[];
}

/** renderFor checks every item before the first iteration: `for a, b` wants ArrayValues (not TupleValues) of that length. */
function loopItems(v: Value, targets: number): Value[] {
  const items = [...iterate(v)];
  if (targets > 1) {
    for (const item of items) {
      if (!Array.isArray(item)) throw err(`Cannot unpack non-iterable type: ${typeOf(item)}`);
      if (item.length !== targets) throw err(`Too ${targets > item.length ? "few" : "many"} items to unpack`);
    }
  }
  return items;
}

export const hfOps: Operators = {
  arith: (op, a, b, rt) => binary(op, a, b, rt),
  concat: (a, b, rt) => binary("~", a, b, rt),
  neg: (v) => unary("-", v),
  pos: (v) => unary("+", v),
  compare: (op, a, b, rt) => binary(op, a, b, rt) as boolean,
  truthy,
  getattr: (obj, name) => member(obj, name),
  getitem: (obj, key) => member(obj, key),
  slice: (obj, start, stop, step) => slice(obj, start, stop, step),
  iterate: (v) => iterate(v),
  unpack: (v, n) => unpack(v, n),
  loopItems: (v, targets) => loopItems(v, targets),
};
