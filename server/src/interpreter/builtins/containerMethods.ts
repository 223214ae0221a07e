// Methods of list, dict, tuple, int and float that Jinja2's ImmutableSandboxedEnvironment lets a
// template call. Mutating ones are UNSAFE (a SecurityError when called). Jinja2 before 3.1.5 did
// not count list.pop/list.clear as mutating: listPop and listClear are those methods for the
// jinja2-3.1.2 dialect (and for the security probe's unsandboxed renders).
import type { Method, MethodTable } from "../dialect";
import { DictView, PyDict } from "../dict";
import { Fault } from "../errors";
import { UNSAFE } from "../python/access";
import { eq } from "../python/compare";
import { isInt, toBig } from "../python/numbers";
import { reprValue } from "../python/repr";
import { Tuple, type Value } from "../values";
import { positional } from "./args";

function items(self: Value): readonly Value[] {
  return Array.isArray(self) ? self : (self as Tuple).items;
}

function index(kind: "list" | "tuple") {
  return (_rt: unknown, self: Value, a: { args: Value[]; kwargs: Map<string, Value> | null }): Value => {
    const [x, start, stop] = positional(`${kind}.index`, a, 3, 1);
    const xs = items(self);
    const n = xs.length;
    const norm = (v: Value | undefined, d: number) => {
      if (v === undefined) return d;
      const i = Number(toBig(v as bigint));
      return i < 0 ? Math.max(0, i + n) : Math.min(i, n);
    };
    for (let i = norm(start, 0); i < norm(stop, n); i++) if (eq(xs[i], x)) return BigInt(i);
    throw Fault.value(kind === "list" ? `${reprValue(x)} is not in list` : "tuple.index(x): x not in tuple");
  };
}

function count(kind: "list" | "tuple") {
  return (_rt: unknown, self: Value, a: { args: Value[]; kwargs: Map<string, Value> | null }): Value => {
    const [x] = positional(`${kind}.count`, a, 1, 1);
    return BigInt(items(self).filter((y) => eq(y, x)).length);
  };
}

/** list.clear() as Jinja2 before 3.1.5 let the immutable sandbox call it. */
export const listClear: Method = (_rt, self, a) => {
  positional("list.clear", a, 0);
  (self as Value[]).length = 0;
  return null;
};

/** list.pop([i]) as Jinja2 before 3.1.5 let the immutable sandbox call it. */
export const listPop: Method = (_rt, self, a) => {
  const [i] = positional("list.pop", a, 1);
  const list = self as Value[];
  if (list.length === 0) throw new Fault("runtime/index", "IndexError", "pop from empty list");
  if (i !== undefined && !isInt(i))
    throw Fault.type(`'${typeof i === "number" ? "float" : "str"}' object cannot be interpreted as an integer`);
  let k = i === undefined ? list.length - 1 : Number(toBig(i));
  if (k < 0) k += list.length;
  if (k < 0 || k >= list.length) throw new Fault("runtime/index", "IndexError", "pop index out of range");
  return list.splice(k, 1)[0];
};

export const listMethods: MethodTable = {
  append: UNSAFE,
  clear: UNSAFE,
  copy: (_rt, self, a) => {
    positional("list.copy", a, 0);
    return [...(self as Value[])];
  },
  count: count("list"),
  extend: UNSAFE,
  index: index("list"),
  insert: UNSAFE,
  pop: UNSAFE,
  remove: UNSAFE,
  reverse: UNSAFE,
  sort: UNSAFE,
};

export const dictMethods: MethodTable = {
  clear: UNSAFE,
  copy: (_rt, self, a) => {
    positional("dict.copy", a, 0);
    return PyDict.from((self as PyDict).entries());
  },
  fromkeys: (_rt, _self, a) => {
    const [keys, value] = positional("dict.fromkeys", a, 2, 1);
    const d = new PyDict();
    for (const k of Array.isArray(keys) ? keys : keys instanceof Tuple ? keys.items : [...(keys as PyDict).keys()]) d.set(k, value ?? null);
    return d;
  },
  get: (_rt, self, a) => {
    const [k, dflt] = positional("dict.get", a, 2, 1);
    const v = (self as PyDict).get(k);
    return v !== undefined ? v : dflt === undefined ? null : dflt;
  },
  items: (_rt, self, a) => {
    positional("dict.items", a, 0);
    return new DictView(self as PyDict, "items");
  },
  keys: (_rt, self, a) => {
    positional("dict.keys", a, 0);
    return new DictView(self as PyDict, "keys");
  },
  pop: UNSAFE,
  popitem: UNSAFE,
  setdefault: UNSAFE,
  update: UNSAFE,
  values: (_rt, self, a) => {
    positional("dict.values", a, 0);
    return new DictView(self as PyDict, "values");
  },
};

export const tupleMethods: MethodTable = {
  count: count("tuple"),
  index: index("tuple"),
};

export const intMethods: MethodTable = {
  bit_length: (_rt, self, a) => {
    positional("int.bit_length", a, 0);
    const n = toBig(self as bigint);
    return BigInt((n < 0n ? -n : n).toString(2).replace(/^0$/, "").length);
  },
};

export const floatMethods: MethodTable = {
  is_integer: (_rt, self, a) => {
    positional("float.is_integer", a, 0);
    return Number.isInteger(self as number);
  },
};
