// minja's conversions and checks that fail with its own words: `Value::get<T>()` (nlohmann's
// type_error.302 for primitives), `size()`, the comparison operators and `in`.
import { compareStr, Fault, LoopContext, Namespace, PyDict, type Value } from "../../interpreter/kit";
import { dump } from "./print";
import {
  arrayItems,
  byteLength,
  isHashable,
  isMinjaNull,
  isNumber,
  isObject,
  LOOP_KEYS,
  objectEntries,
  primitiveEq,
  truthy,
  eq,
  wrap,
} from "./values";

export function repr(v: Value): string {
  return dump(v, { json: false, indent: -1 });
}

const JSON_TYPE: Record<string, string> = { string: "string", boolean: "boolean", bigint: "number", number: "number" };

function jsonTypeName(v: Value): string {
  return isMinjaNull(v) ? "null" : (JSON_TYPE[typeof v] ?? "object");
}

/** `Value::get<T>()` on something that is not a primitive. */
function notPrimitive(v: Value): Fault {
  return Fault.type(`get<T> not defined for this value type: ${repr(v)}`);
}

function typeError(want: string, v: Value): Fault {
  return Fault.type(`[json.exception.type_error.302] type must be ${want}, but is ${jsonTypeName(v)}`);
}

/** `get<double>()` */
export function asDouble(v: Value): number {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (!isHashable(v)) throw notPrimitive(v);
  throw typeError("number", v);
}

/** `get<int64_t>()`: a float truncates; booleans are not numbers here. */
export function asInt(v: Value): bigint {
  if (typeof v === "bigint") return v;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw Fault.notReproduced(`converting ${v} to an integer is undefined behaviour in minja`);
    return wrap(BigInt(Math.trunc(v)));
  }
  if (!isHashable(v)) throw notPrimitive(v);
  throw typeError("number", v);
}

export function asString(v: Value): string {
  if (typeof v === "string") return v;
  if (!isHashable(v)) throw notPrimitive(v);
  throw typeError("string", v);
}

export function asBool(v: Value): boolean {
  if (typeof v === "boolean") return v;
  if (!isHashable(v)) throw notPrimitive(v);
  throw typeError("boolean", v);
}

/** `Value::size()` */
export function sizeOf(v: Value): number {
  const items = arrayItems(v);
  if (items) return items.length;
  if (typeof v === "string") return byteLength(v);
  if (v instanceof PyDict) return v.size;
  if (v instanceof Namespace) return v.attrs.size;
  if (isObject(v)) return v instanceof LoopContext ? LOOP_KEYS.length : 0;
  throw Fault.type(`Value is not an array or object: ${repr(v)}`);
}

/** `Value::operator<` and `>`: numbers with numbers, strings with strings (as UTF-8 bytes). */
export function less(a: Value, b: Value, greater: boolean): boolean {
  if (isMinjaNull(a)) throw Fault.type("Undefined value or reference");
  if (isNumber(a) && isNumber(b)) return greater ? Number(a) > Number(b) : Number(a) < Number(b);
  if (typeof a === "string" && typeof b === "string") return greater ? compareStr(a, b) > 0 : compareStr(a, b) < 0;
  throw Fault.type(`Cannot compare values: ${repr(a)} ${greater ? ">" : "<"} ${repr(b)}`);
}

/** The free function `in(value, container)`. */
export function contains(container: Value, value: Value): boolean {
  const items = arrayItems(container);
  if (items) return items.some((x) => truthy(x) && eq(x, value));
  const entries = objectEntries(container);
  if (entries) {
    if (!isHashable(value)) throw Fault.type(`Unhashable type: ${repr(value)}`);
    return entries.some(([k]) => primitiveEq(k, value));
  }
  return typeof value === "string" && typeof container === "string" && container.includes(value);
}
