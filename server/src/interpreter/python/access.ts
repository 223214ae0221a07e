// Attribute and item access as Jinja2's ImmutableSandboxedEnvironment does it (jinja2/sandbox.py):
// `a.b` tries the Python attribute first and then the item, `a[b]` the other way round; `_`-names
// and mutating methods are "unsafe" (an Undefined that raises SecurityError when used); a missing
// name is an Undefined. Only the method tables of the dialect are reachable, so no JS property of
// any value ever is.
import type { Method, MethodTable, MethodTables, Runtime } from "../dialect";
import { BoundMethod } from "../callables";
import { PyDict } from "../dict";
import { Fault } from "../errors";
import { Undefined } from "../undefined";
import { Markup, PyObject, PyRange, Tuple, typeName, type Value } from "../values";
import { isInt, toBig } from "./numbers";
import { codePoints, hasAstral } from "./text";

/** The public attributes Python's builtin types have (`dir(str)` … in CPython 3.11). */
const PY_ATTRS: Record<keyof MethodTables, ReadonlySet<string>> = {
  str: words(
    "capitalize casefold center count encode endswith expandtabs find format format_map index isalnum isalpha isascii isdecimal isdigit isidentifier islower isnumeric isprintable isspace istitle isupper join ljust lower lstrip maketrans partition removeprefix removesuffix replace rfind rindex rjust rpartition rsplit rstrip split splitlines startswith strip swapcase title translate upper zfill",
  ),
  list: words("append clear copy count extend index insert pop remove reverse sort"),
  dict: words("clear copy fromkeys get items keys pop popitem setdefault update values"),
  tuple: words("count index"),
  int: words("as_integer_ratio bit_count bit_length conjugate denominator from_bytes imag numerator real to_bytes"),
  float: words("as_integer_ratio conjugate fromhex hex imag is_integer real"),
};

/** `__x__`: every Python object has attributes of that shape (and the sandbox refuses them). */
function isDunder(name: string): boolean {
  return name.length > 4 && name.startsWith("__") && name.endsWith("__");
}

function words(s: string): ReadonlySet<string> {
  return new Set(s.split(" "));
}

/** Marks a method the sandbox refuses (ImmutableSandboxedEnvironment's `modifies_known_mutable`). */
export const UNSAFE: Method = () => {
  throw new Error("unreachable: unsafe methods are never bound");
};

function tableKey(obj: Value): keyof typeof PY_ATTRS | null {
  switch (typeof obj) {
    case "string":
      return "str";
    case "bigint":
    case "boolean":
      return "int";
    case "number":
      return "float";
  }
  if (Array.isArray(obj)) return "list";
  if (obj instanceof PyDict) return "dict";
  if (obj instanceof Markup) return "str";
  if (obj instanceof Tuple) return "tuple";
  return null;
}

function unsafe(obj: Value, name: string): Undefined {
  return Undefined.unsafe(`access to attribute '${name}' of '${typeName(obj)}' object is unsafe.`);
}

/** Python's getattr(obj, name) under the sandbox, or undefined when Python raises AttributeError. */
export function pyAttribute(obj: Value, name: string, rt: Runtime): Value | undefined {
  if (obj instanceof PyObject && obj.attr) {
    const v = obj.attr(name);
    if (v !== undefined) return name.startsWith("_") ? unsafe(obj, name) : v;
  }
  if (isDunder(name)) return unsafe(obj, name);
  const key = tableKey(obj);
  if (key === null || !PY_ATTRS[key].has(name)) return undefined;
  const table: MethodTable = rt.dialect.methods[key];
  const method = Object.hasOwn(table, name) ? table[name] : undefined;
  if (method === UNSAFE) return unsafe(obj, name);
  if (method === undefined) throw Fault.notReproduced(`${typeName(obj)}.${name} is not reproduced`);
  return new BoundMethod(obj, name, typeName(obj), method);
}

/** Python's obj[key], or undefined where Python raises TypeError/LookupError. */
function pyItem(obj: Value, key: Value): Value | undefined {
  if (obj instanceof PyDict) {
    try {
      return obj.get(key);
    } catch (e) {
      if (e instanceof Fault && e.code === "runtime/type") return undefined;
      throw e;
    }
  }
  if (!isInt(key)) return undefined;
  const i = toBig(key);
  if (Array.isArray(obj)) return at(obj, i);
  if (typeof obj === "string") return hasAstral(obj) ? at(codePoints(obj), i) : at(obj as unknown as string[], i);
  if (obj instanceof Tuple) return at(obj.items, i);
  if (obj instanceof Markup) {
    const c = at(codePoints(obj.s), i);
    return c === undefined ? c : new Markup(c as string);
  }
  if (obj instanceof PyRange) {
    const n = BigInt(obj.length);
    const j = i < 0n ? i + n : i;
    return j >= 0n && j < n ? obj.at(Number(j)) : undefined;
  }
  return undefined;
}

function at(items: ArrayLike<Value>, i: bigint): Value | undefined {
  const n = BigInt(items.length);
  const j = i < 0n ? i + n : i;
  return j >= 0n && j < n ? items[Number(j)] : undefined;
}

export function getattr(obj: Value, name: string, rt: Runtime): Value {
  // The hot path of chat templates, `message.role`: a dict key that is no dict attribute.
  if (obj instanceof PyDict && !PY_ATTRS.dict.has(name) && !isDunder(name)) {
    const v = obj.getStr(name);
    return v !== undefined ? v : Undefined.member(obj, name);
  }
  if (obj instanceof Undefined) throw obj.fault();
  const a = pyAttribute(obj, name, rt);
  if (a !== undefined) return a;
  const item = pyItem(obj, name);
  return item !== undefined ? item : Undefined.member(obj, name);
}

export function getitem(obj: Value, key: Value, rt: Runtime): Value {
  if (obj instanceof Undefined) throw obj.fault();
  const v = pyItem(obj, key);
  if (v !== undefined) return v;
  if (typeof key === "string") {
    const a = pyAttribute(obj, key, rt);
    if (a !== undefined) return a;
  }
  return Undefined.member(obj, key);
}

/** Python's slice indices (`slice.indices`), then the selected items of a str, list, tuple or range. */
export function slice(obj: Value, start: Value | undefined, stop: Value | undefined, step: Value | undefined): Value {
  if (obj instanceof Undefined) throw obj.fault();
  const items: readonly Value[] | null =
    typeof obj === "string"
      ? codePoints(obj)
      : obj instanceof Markup
        ? codePoints(obj.s)
        : Array.isArray(obj)
          ? obj
          : obj instanceof Tuple
            ? obj.items
            : obj instanceof PyRange
              ? Array.from({ length: obj.length }, (_, i) => obj.at(i))
              : null;
  // Jinja2 slices with Python's own subscript, not its lenient getitem.
  if (items === null)
    throw Fault.type(obj instanceof PyDict ? "unhashable type: 'slice'" : `'${typeName(obj)}' object is not subscriptable`);
  const idx = (v: Value | undefined): bigint | null => {
    if (v === undefined || v === null) return null;
    if (v instanceof Undefined) throw v.fault();
    if (!isInt(v)) throw Fault.type("slice indices must be integers or None or have an __index__ method");
    return toBig(v);
  };
  const st = idx(step) ?? 1n;
  if (st === 0n) throw Fault.value("slice step cannot be zero");
  const n = BigInt(items.length);
  const clamp = (v: bigint | null, dflt: bigint, lo: bigint, hi: bigint): number => {
    if (v === null) return Number(dflt);
    const w = v < 0n ? v + n : v;
    return Number(w < lo ? lo : w > hi ? hi : w);
  };
  const out: Value[] = [];
  if (st > 0n) {
    const a = clamp(idx(start), 0n, 0n, n);
    const b = clamp(idx(stop), n, 0n, n);
    for (let i = a; i < b; i += Number(st)) out.push(items[i]);
  } else {
    const a = clamp(idx(start), n - 1n, -1n, n - 1n);
    const b = clamp(idx(stop), -1n, -1n, n - 1n);
    for (let i = a; i > b; i += Number(st)) out.push(items[i]);
  }
  if (typeof obj === "string") return out.join("");
  if (obj instanceof Markup) return new Markup(out.join(""));
  if (obj instanceof Tuple) return new Tuple(out);
  return out;
}
