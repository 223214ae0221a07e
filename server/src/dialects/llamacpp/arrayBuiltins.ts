// The builtins of Array and Tuple (value.cpp: value_array_t::get_builtins). Where Jinja2 takes a
// test name, these differ: `select('odd')` is selectattr with attribute 'odd' (items must be objects),
// `selectattr('a', 'defined')` asks for a test named 'a'; `map` only maps attributes; `unique`,
// and `min`/`max` by attribute, throw NotImplemented; sort is std::sort (not stable).
import { type Runtime, Tuple, Undefined, type Value } from "../../interpreter/kit";
import { LArgs } from "./args";
import { defaultValue, tojson } from "./commonBuiltins";
import type { Builtin, BuiltinTable } from "./functions";
import { objectAt, valueCompare } from "./ops";
import { sliceArgs, sliceIndices } from "./slice";
import { stdSort } from "./stdSort";
import { isStr, strOf } from "./strings";
import { llamaTests } from "./tests";
import { asBool, asInt, asString, fault, isArray, isInt, isObject, itemsOf, KwArg, notImplemented, present, typeOf, undef } from "./values";

type List = Value[] | Tuple;
const items = (v: Value) => itemsOf(v as List);
/** A result keeps the input's kind (tuple in, tuple out), as slice, map, sort and reverse do. */
const like = (input: Value, out: Value[]): Value => (input instanceof Tuple ? new Tuple(out) : out);

function array(a: LArgs, what: string): readonly Value[] {
  if (!isArray(a.pos(0))) throw fault(`${what}: first argument must be an array`, "runtime/type");
  return items(a.pos(0));
}

/** value_array_t::at(int64) without a default: negative indexes wrap, out of range throws. */
function at(list: readonly Value[], i: bigint): Value {
  const j = i < 0n ? i + BigInt(list.length) : i;
  if (j < 0n || j >= BigInt(list.length)) throw fault(`Index ${j} out of bounds for array of size ${list.length}`, "runtime/index");
  return list[Number(j)];
}

/** value_object_t::at(key) without a default. */
function key(o: Value, k: Value): Value {
  const v = objectAt(o as Parameters<typeof objectAt>[0], k);
  if (v === undefined) throw fault(`Key '${strOf(asString(k))}' not found in value of type Object`, "runtime/key");
  return v;
}

function selectattr(reject: boolean): Builtin {
  return (a, rt) => {
    a.ensureCount(2, 4);
    a.ensureVals(["array", "string", "string", "string"], [true, true, false, false]);
    const list = items(a.pos(0));
    const keep = (ok: boolean) => ok !== reject;
    const attr = (item: Value, name: Value) => {
      if (!isObject(item)) throw fault("selectattr: item is not an object", "runtime/type");
      return present(objectAt(item, name), undef);
    };
    const test = (nameArg: Value) => {
      const name = strOf(asString(nameArg));
      if (!Object.hasOwn(llamaTests, name)) throw fault(`selectattr: unknown test '${name}'`, "runtime/unknown-test");
      const t = llamaTests[name];
      return (v: Value, arg: Value) => asBool(t(new LArgs([v, arg], ""), rt));
    };
    if (a.count === 2) return list.filter((item) => keep(asBool(attr(item, a.pos(1)))));
    if (a.count === 3) {
      const t = test(a.pos(1));
      return list.filter((item) => keep(t(item, a.pos(2))));
    }
    const t = test(a.pos(2));
    return list.filter((item) => keep(t(attr(item, a.pos(1)), a.pos(3))));
  };
}

const join: Builtin = (a) => {
  a.ensureCount(1, 3);
  if (!isArray(a.pos(0))) throw fault("join() first argument must be an array", "runtime/type");
  const delim = a.kwargOrPos("d", 1);
  const attribute = a.kwargOrPos("attribute", 2);
  const byIndex = isInt(attribute);
  if (!(attribute instanceof Undefined) && !isStr(attribute) && !byIndex)
    throw fault("join() attribute must be string or integer", "runtime/type");
  const sep = delim instanceof Undefined ? "" : strOf(asString(delim));
  return items(a.pos(0))
    .map((item) => {
      let v = item;
      if (!(attribute instanceof Undefined)) {
        if (byIndex && isArray(v)) v = at(items(v), attribute);
        else if (!byIndex && isObject(v)) v = key(v, attribute);
      }
      if (!isStr(v) && typeof v !== "bigint" && typeof v !== "number")
        throw fault("join() can only join arrays of strings or numerics", "runtime/type");
      return strOf(asString(v));
    })
    .join(sep);
};

const map: Builtin = (a) => {
  a.ensureCount(2);
  const input = a.pos(0);
  const list = array(a, "map");
  if (!(a.list[1] instanceof KwArg)) throw notImplemented("map: filter-mapping not implemented");
  const attribute = a.kwargOrPos("attribute", 1);
  if (!isStr(attribute) && !isInt(attribute)) throw fault("map: attribute must be string or integer", "runtime/type");
  const fallback = a.kwarg("default", undef());
  return like(
    input,
    list.map((item) => {
      if (isInt(attribute)) {
        if (!isArray(item)) return fallback;
        const l = items(item);
        const j = attribute < 0n ? attribute + BigInt(l.length) : attribute;
        return j >= 0n && j < BigInt(l.length) ? l[Number(j)] : fallback;
      }
      return isObject(item) ? present(objectAt(item, attribute), () => fallback) : fallback;
    }),
  );
};

function mutable(a: LArgs, what: string): Value[] {
  const v = a.pos(0);
  if (!isArray(v)) throw fault(`${what}: first argument must be an array`, "runtime/type");
  if (v instanceof Tuple) throw fault("Attempting to modify immutable type", "runtime/type");
  return v;
}

const sort: Builtin = (a) => {
  a.ensureCount(1, 4);
  const input = a.pos(0);
  const list = [...array(a, "sort")];
  const reverse = asBool(a.kwargOrPos("reverse", 1));
  const attribute = a.kwargOrPos("attribute", 3);
  const byIndex = isInt(attribute);
  const sortKey = (x: Value, y: Value): [Value, Value] => {
    if (attribute instanceof Undefined) return [x, y];
    if (byIndex && isArray(x) && isArray(y)) return [at(items(x), attribute), at(items(y), attribute)];
    if (!byIndex && isObject(x) && isObject(y)) return [key(x, attribute), key(y, attribute)];
    throw fault(`sort: unsupported object attribute comparison between ${typeOf(x)} and ${typeOf(y)}`, "runtime/type");
  };
  return like(
    input,
    stdSort(list, (x, y) => valueCompare(...sortKey(x, y), reverse ? "gt" : "lt")),
  );
};

function extreme(name: "min" | "max"): Builtin {
  return (a) => {
    a.ensureCount(1, 4);
    a.ensureVals(["array"]);
    if (!(a.kwargOrPos("attribute", 2) instanceof Undefined)) throw notImplemented(`${name}: attribute not implemented`);
    const list = items(a.pos(0));
    if (list.length === 0) return undef();
    return list.reduce((best, v) => (valueCompare(v, best, name === "min" ? "lt" : "gt") ? v : best));
  };
}

const slice: Builtin = (a) => {
  a.ensureCount(1, 4);
  a.ensureVals(["array", "int", "int", "int"], [true, true, false, false]);
  const [start, stop, step] = sliceArgs(a);
  const list = items(a.pos(0));
  return like(
    a.pos(0),
    sliceIndices(list.length, start, stop, step).map((i) => list[i]),
  );
};

const checked =
  (f: (list: readonly Value[], input: Value, a: LArgs, rt: Runtime) => Value): Builtin =>
  (a, rt) => {
    a.ensureVals(["array"]);
    return f(items(a.pos(0)), a.pos(0), a, rt);
  };

export const arrayBuiltins: BuiltinTable = {
  default: defaultValue,
  list: checked((list) => [...list]),
  first: checked((list) => (list.length ? list[0] : undef())),
  last: checked((list) => (list.length ? list[list.length - 1] : undef())),
  length: checked((list) => BigInt(list.length)),
  slice,
  selectattr: selectattr(false),
  select: selectattr(false),
  rejectattr: selectattr(true),
  reject: selectattr(true),
  join,
  string: checked((_list, input) => asString(input)),
  tojson,
  map,
  append: (a) => {
    a.ensureCount(2);
    mutable(a, "append").push(a.pos(1));
    return a.pos(0);
  },
  pop: (a) => {
    a.ensureCount(1, 2);
    a.ensureVals(["array", "int"], [true, false]);
    const list = mutable(a, "pop");
    const i = a.count === 2 ? asInt(a.pos(1)) : -1n;
    const j = i < 0n ? i + BigInt(list.length) : i;
    if (j < 0n || j >= BigInt(list.length)) throw fault(`Index ${j} out of bounds for array of size ${list.length}`, "runtime/index");
    return list.splice(Number(j), 1)[0];
  },
  sort,
  reverse: checked((list, input) => like(input, [...list].reverse())),
  min: extreme("min"),
  max: extreme("max"),
  unique: () => {
    throw notImplemented("Array unique builtin not implemented");
  },
};
