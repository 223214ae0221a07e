// @huggingface/jinja's values (runtime.ts) on our value model: IntegerValue is a bigint holding an
// integral double, FloatValue a number, undefined our Undefined, ObjectValue a PyDict (string keys),
// TupleValue a Tuple, the `loop` LoopValue our LoopContext, FunctionValue a Callable. The engine's
// JavaScript shows through in how values become text and compare, which is reproduced here.
import { Callable, Fault, LoopContext, Namespace, PyDict, PyObject, Tuple, Undefined, type Value } from "../../interpreter/kit";

/** An IntegerValue the engine made of NaN or ±Infinity (`x % 0`, `x // 0`): no bigint holds it. */
export class NonFiniteInt extends PyObject {
  constructor(readonly n: number) {
    super();
  }
  get typeName(): string {
    return "int";
  }
}

/** The engine's class name of a value, as its error messages spell it. */
export function typeOf(v: Value): string {
  if (v === null) return "NullValue";
  switch (typeof v) {
    case "boolean":
      return "BooleanValue";
    case "bigint":
      return "IntegerValue";
    case "number":
      return "FloatValue";
    case "string":
      return "StringValue";
  }
  if (v instanceof NonFiniteInt) return "IntegerValue";
  if (Array.isArray(v)) return "ArrayValue";
  if (v instanceof Tuple) return "TupleValue";
  if (v instanceof PyDict || v instanceof LoopContext) return "ObjectValue";
  if (v instanceof Namespace) return "NamespaceValue";
  if (v instanceof Undefined) return "UndefinedValue";
  if (v instanceof Callable) return "FunctionValue";
  return "RuntimeValue";
}

export const isUndef = (v: Value): v is Undefined => v instanceof Undefined;
export type Int = bigint | NonFiniteInt;
export const isInt = (v: Value): v is Int => typeof v === "bigint" || v instanceof NonFiniteInt;
export const isNumeric = (v: Value): v is Int | number => isInt(v) || typeof v === "number";

/** ArrayValue, TupleValue included (it extends ArrayValue). */
export function arrayOf(v: Value): readonly Value[] | null {
  if (Array.isArray(v)) return v;
  if (v instanceof Tuple) return v.items;
  return null;
}

/** The `loop` object's entries (LoopValue.createEntries). */
export function loopEntries(loop: LoopContext): [string, Value][] {
  return ["index", "index0", "revindex", "revindex0", "first", "last", "length", "previtem", "nextitem"].map((k) => [k, loop.attr(k)!]);
}

/** The entries of an ObjectValue or NamespaceValue. */
export function entriesOf(v: Value): [string, Value][] | null {
  if (v instanceof PyDict) return [...v.entries()] as [string, Value][];
  if (v instanceof Namespace) return [...v.attrs.entries()];
  if (v instanceof LoopContext) return loopEntries(v);
  return null;
}

/** The double the engine holds. */
export function num(v: Int | number | boolean): number {
  return v instanceof NonFiniteInt ? v.n : Number(v);
}

/** An IntegerValue result: the engine keeps the double. */
export function intResult(x: number): Int {
  return Number.isFinite(x) ? BigInt(x) : new NonFiniteInt(x);
}

/** `__bool__`: JS truthiness of the value, Python's for lists and dicts; a namespace is always true. */
export function truthy(v: Value): boolean {
  if (v === null || v instanceof Undefined) return false;
  switch (typeof v) {
    case "boolean":
      return v;
    case "bigint":
      return v !== 0n;
    case "number":
      return v !== 0 && !Number.isNaN(v);
    case "string":
      return v !== "";
  }
  if (v instanceof NonFiniteInt) return !Number.isNaN(v.n);
  const items = arrayOf(v);
  if (items) return items.length > 0;
  if (v instanceof PyDict) return v.size > 0;
  return true;
}

/** JS `String(n)` of a number the engine holds. */
export function jsNumber(n: number): string {
  return String(n);
}

/** FloatValue.toString: `1.0`, `-0.0`, otherwise JS. */
export function floatString(x: number): string {
  if (Object.is(x, -0)) return "-0.0";
  return x % 1 === 0 ? x.toFixed(1) : String(x);
}

function functionSource(): never {
  throw Fault.notReproduced("the engine prints a function as its JavaScript source");
}

/**
 * RuntimeValue.toString(): what `{{ x }}` prints and what an array's items become in JS string
 * conversions. A NullValue is built without an argument, so its `value` is undefined: "undefined".
 */
export function display(v: Value): string {
  if (v === null) return "undefined";
  if (v instanceof Undefined) return "undefined";
  switch (typeof v) {
    case "boolean":
      return String(v);
    case "bigint":
      return jsNumber(Number(v));
    case "number":
      return floatString(v);
    case "string":
      return v;
  }
  if (v instanceof NonFiniteInt) return jsNumber(v.n);
  if (v instanceof Callable && !(v instanceof LoopContext)) return functionSource();
  return toJSON(v, {}, 0, false);
}

/** `value.toString()` of the JS value inside (`~`, `+` with a string, `join`): floats lose `.0`, a dict is `[object Map]`. */
export function raw(v: Value): string {
  if (v === null) return "null";
  if (v instanceof Undefined) return "undefined";
  switch (typeof v) {
    case "bigint":
      return jsNumber(Number(v));
    case "number":
      return jsNumber(v);
    case "boolean":
    case "string":
      return String(v);
  }
  if (v instanceof NonFiniteInt) return jsNumber(v.n);
  const items = arrayOf(v);
  // Array.prototype.toString joins the items' own toString with ",", null/undefined items as "".
  if (items) return items.map(display).join(",");
  if (v instanceof Callable && !(v instanceof LoopContext)) return functionSource();
  return "[object Map]";
}

/** `x.value` as Array.prototype.join sees it: null and undefined are empty. */
export function joinPart(v: Value): string {
  return v === null || v instanceof Undefined ? "" : raw(v);
}

export interface JsonOptions {
  indent?: number | null;
  ensureAscii?: boolean;
  separators?: [string, string] | null;
  sortKeys?: boolean;
}

function jsonString(s: string, ascii: boolean): string {
  const j = JSON.stringify(s);
  return ascii ? j.replace(/[\x7f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")) : j;
}

/** runtime.ts `toJSON`: JSON.stringify for scalars, Python-like separators, `undefined` spelled out when printing. */
export function toJSON(v: Value, o: JsonOptions, depth = 0, undefinedToNull = true): string {
  const { indent = null, ensureAscii = false, separators = null, sortKeys = false } = o;
  const [itemSep, keySep] = separators ?? (indent ? [",", ": "] : [", ", ": "]);
  if (v === null) return "null";
  if (v instanceof Undefined) return undefinedToNull ? "null" : "undefined";
  switch (typeof v) {
    case "bigint":
      return JSON.stringify(Number(v));
    case "number":
    case "boolean":
      return JSON.stringify(v);
    case "string":
      return jsonString(v, ensureAscii);
  }
  if (v instanceof NonFiniteInt) return JSON.stringify(v.n);
  // The switch in toJSON knows "ArrayValue" but not "TupleValue": a tuple cannot be printed.
  if (v instanceof Tuple) throw new Fault("runtime/type", "Error", "Cannot convert to JSON: TupleValue");
  const pad = indent ? " ".repeat(indent) : "";
  const base = "\n" + pad.repeat(depth);
  const child = base + pad;
  const items = arrayOf(v);
  if (items) {
    const core = items.map((x) => toJSON(x, o, depth + 1, undefinedToNull));
    return indent && core.length ? `[${child}${core.join(itemSep + child)}${base}]` : `[${core.join(itemSep)}]`;
  }
  let entries = entriesOf(v);
  if (!entries) throw new Fault("runtime/type", "Error", `Cannot convert to JSON: ${typeOf(v)}`);
  if (sortKeys) entries = entries.sort(([a], [b]) => a.localeCompare(b));
  const core = entries.map(
    ([k, x]) => `${indent ? child : ""}${jsonString(k, ensureAscii)}${keySep}${toJSON(x, o, depth + 1, undefinedToNull)}`,
  );
  return indent && core.length ? `{${core.join(itemSep)}${base}}` : `{${core.join(itemSep)}}`;
}

/** The JS value a comparison sees (`left.value`): numbers, strings, booleans, null, undefined, or an object. */
type JsPrimitive = number | string | boolean | undefined;

function primitive(v: Value): JsPrimitive | object {
  if (typeof v === "string" || typeof v === "boolean" || typeof v === "number") return v;
  if (isInt(v)) return num(v);
  // NullValue.value, like UndefinedValue.value, is undefined.
  if (v === null || v instanceof Undefined) return undefined;
  return v instanceof Tuple ? v.items : v;
}

/** `left.value == right.value`: JS loose equality; containers are equal only to themselves. */
export function looseEq(a: Value, b: Value): boolean {
  const x = primitive(a);
  const y = primitive(b);
  const xo = typeof x === "object" && x !== null;
  const yo = typeof y === "object" && y !== null;
  if (xo && yo) return x === y;
  // An object against a primitive: ToPrimitive makes it its string (an array's items joined, a Map "[object Map]").
  if (xo) return y === undefined ? false : raw(a) == (y as string | number | boolean);
  if (yo) return x === undefined ? false : (x as string | number | boolean) == raw(b);
  return x == y;
}

/** `x.value === left.value` (membership in a list). */
export function strictEq(a: Value, b: Value): boolean {
  return primitive(a) === primitive(b);
}
