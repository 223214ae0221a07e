// Python's arithmetic operators with its exact errors (`can only concatenate str (not "list") to
// str`, `integer division or modulo by zero`), as Jinja2 evaluates them.
import type { ArithOp, Runtime } from "../dialect";
import { Fault } from "../errors";
import { Undefined } from "../undefined";
import { Markup, Tuple, typeName, type Value } from "../values";
import { escapeHtml } from "./markup";
import { floatMod, floorDiv, intTrueDiv, isInt, isNumber, pyMod, toBig, toFloat } from "./numbers";
import { percentFormat } from "./percentFormat";

/** An int result above this many bits is refused: Python would compute it, slowly, forever. */
const MAX_INT_BITS = 1 << 20;

export function arith(op: ArithOp, a: Value, b: Value, rt: Runtime): Value {
  if (a instanceof Undefined) throw a.fault();
  if (b instanceof Undefined && !(op === "%" && (typeof a === "string" || a instanceof Markup))) throw b.fault();
  if (isNumber(a) && isNumber(b)) return numeric(op, a, b);
  switch (op) {
    case "+":
      return add(a, b, rt);
    case "*":
      return repeat(a, b, rt);
    case "%":
      if (typeof a === "string") return percentFormat(a, b, rt);
      if (a instanceof Markup) return new Markup(percentFormat(a.s, escapeArgs(b), rt));
  }
  throw unsupported(op, a, b);
}

function unsupported(op: string, a: Value, b: Value): Fault {
  return Fault.type(`unsupported operand type(s) for ${op === "**" ? "** or pow()" : op}: '${typeName(a)}' and '${typeName(b)}'`);
}

function zeroDivision(text: string): Fault {
  return new Fault("runtime/zero-division", "ZeroDivisionError", text);
}

function numeric(op: ArithOp, a: boolean | bigint | number, b: boolean | bigint | number): Value {
  if (op === "/") {
    const y = toFloat(b);
    if (y === 0) throw zeroDivision(typeof a === "number" || typeof b === "number" ? "float division by zero" : "division by zero");
    return isInt(a) && isInt(b) ? intTrueDiv(toBig(a), toBig(b)) : toFloat(a) / y;
  }
  if (isInt(a) && isInt(b)) {
    const x = toBig(a);
    const y = toBig(b);
    switch (op) {
      case "+":
        return x + y;
      case "-":
        return x - y;
      case "*":
        checkBits(bits(x) + bits(y));
        return x * y;
      case "//":
        if (y === 0n) throw zeroDivision("integer division or modulo by zero");
        return floorDiv(x, y);
      case "%":
        if (y === 0n) throw zeroDivision("integer modulo by zero");
        return pyMod(x, y);
      case "**":
        if (y < 0n) {
          if (x === 0n) throw zeroDivision("0.0 cannot be raised to a negative power");
          return Number(x) ** Number(y);
        }
        if (x !== 0n && x !== 1n && x !== -1n) checkBits(bits(x) * Number(y));
        return x ** y;
    }
  }
  const x = toFloat(a);
  const y = toFloat(b);
  switch (op) {
    case "+":
      return x + y;
    case "-":
      return x - y;
    case "*":
      return x * y;
    case "//":
      if (y === 0) throw zeroDivision("float floor division by zero");
      return Math.floor(x / y);
    case "%":
      if (y === 0) throw zeroDivision("float modulo");
      return floatMod(x, y);
    case "**":
      if (x === 0 && y < 0) throw zeroDivision("0.0 cannot be raised to a negative power");
      if (x < 0 && !Number.isInteger(y)) throw Fault.notReproduced("a negative number to a fractional power is a complex number in Python");
      return x ** y;
  }
}

function bits(x: bigint): number {
  return x === 0n ? 0 : (x < 0n ? -x : x).toString(16).length * 4;
}

function checkBits(n: number): void {
  if (n > MAX_INT_BITS) throw new Fault("limit/output", null, `integer result too large (over ${MAX_INT_BITS} bits)`);
}

function add(a: Value, b: Value, rt: Runtime): Value {
  if (typeof a === "string") {
    if (typeof b === "string") {
      rt.checkSize(a.length + b.length);
      return a + b;
    }
    if (b instanceof Markup) return new Markup(escapeHtml(a) + b.s);
    throw Fault.type(`can only concatenate str (not "${typeName(b)}") to str`);
  }
  if (a instanceof Markup) {
    if (typeof b === "string") return new Markup(a.s + escapeHtml(b));
    if (b instanceof Markup) return new Markup(a.s + b.s);
    // Markup.__add__ returns NotImplemented, so Python reports the operand types.
    throw unsupported("+", a, b);
  }
  if (Array.isArray(a)) {
    if (Array.isArray(b)) {
      rt.checkSize(a.length + b.length);
      return a.concat(b);
    }
    throw Fault.type(`can only concatenate list (not "${typeName(b)}") to list`);
  }
  if (a instanceof Tuple) {
    if (b instanceof Tuple) return new Tuple([...a.items, ...b.items]);
    throw Fault.type(`can only concatenate tuple (not "${typeName(b)}") to tuple`);
  }
  throw unsupported("+", a, b);
}

function repeat(a: Value, b: Value, rt: Runtime): Value {
  const isSeq = (v: Value) => typeof v === "string" || v instanceof Markup || Array.isArray(v) || v instanceof Tuple;
  if (!isSeq(a) && isSeq(b)) [a, b] = [b, a];
  if (!isInt(b)) throw isSeq(a) ? Fault.type(`can't multiply sequence by non-int of type '${typeName(b)}'`) : unsupported("*", a, b);
  const count = toBig(b);
  if (count > 0x7fffffffffffffffn || count < -0x8000000000000000n)
    throw new Fault("runtime/overflow", "OverflowError", "cannot fit 'int' into an index-sized integer");
  const n = Number(count < 0n ? 0n : count);
  if (typeof a === "string" || a instanceof Markup) {
    const s = typeof a === "string" ? a : a.s;
    rt.checkSize(s.length * n);
    return typeof a === "string" ? s.repeat(n) : new Markup(s.repeat(n));
  }
  if (Array.isArray(a) || a instanceof Tuple) {
    const items = Array.isArray(a) ? a : a.items;
    rt.checkSize(items.length * n);
    const out: Value[] = [];
    for (let i = 0; i < n; i++) out.push(...items);
    return Array.isArray(a) ? out : new Tuple(out);
  }
  throw unsupported("*", a, b);
}

function escapeArgs(b: Value): Value {
  if (b instanceof Tuple) return new Tuple(b.items.map(escapeArg));
  return escapeArg(b);
}

function escapeArg(v: Value): Value {
  return typeof v === "string" ? new Markup(escapeHtml(v)) : v;
}

/** `a ~ b`: both sides as output text, joined (never Markup: autoescape is off for chat templates). */
export function concat(a: Value, b: Value, rt: Runtime): Value {
  const s = rt.str(a) + rt.str(b);
  rt.checkSize(s.length);
  return s;
}

export function neg(v: Value): Value {
  if (v instanceof Undefined) throw v.fault();
  if (typeof v === "number") return -v;
  if (isInt(v)) return -toBig(v);
  throw Fault.type(`bad operand type for unary -: '${typeName(v)}'`);
}

export function pos(v: Value): Value {
  if (v instanceof Undefined) throw v.fault();
  if (typeof v === "number") return v;
  if (isInt(v)) return toBig(v);
  throw Fault.type(`bad operand type for unary +: '${typeName(v)}'`);
}
