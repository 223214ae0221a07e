// The builtins of Object (value.cpp: value_object_t::get_builtins). There is no `default`
// ("cause issue with gpt-oss"), so `{}|default(x)` throws; `dictsort` is std::sort over the entries
// and returns an object (printing as nothing); `items` gives (key, value) tuples; `join` throws.
// The `loop` object has no builtins at all (has_builtins = false).
import { PyDict, Tuple, type Value } from "../../interpreter/kit";
import { tojson } from "./commonBuiltins";
import type { Builtin, BuiltinTable } from "./functions";
import { objectAt, valueCompare } from "./ops";
import { stdSort } from "./stdSort";
import { isStr, strOf } from "./strings";
import { asBool, asString, entriesOf, fault, isObject, notImplemented, present } from "./values";

type Obj = Parameters<typeof entriesOf>[0];

const entries: (f: (e: [Value, Value][], o: Obj) => Value) => Builtin = (f) => (a) => {
  a.ensureVals(["object"]);
  return f(entriesOf(a.pos(0) as Obj), a.pos(0) as Obj);
};

const dictsort: Builtin = (a) => {
  const input = a.pos(0) as Obj;
  const by = a.kwargOrPos("by", 2);
  const reverse = asBool(a.kwargOrPos("reverse", 3));
  const byValue = isStr(by) && strOf(by) === "value";
  const sorted = stdSort(entriesOf(input), (x, y) => valueCompare(byValue ? x[1] : x[0], byValue ? y[1] : y[0], reverse ? "gt" : "lt"));
  return PyDict.from(sorted);
};

export const objectBuiltins: BuiltinTable = {
  get: (a) => {
    a.ensureCount(2, 3);
    if (!isObject(a.pos(0))) throw fault("get: first argument must be an object", "runtime/type");
    if (!isStr(a.pos(1))) throw fault("get: second argument must be a string (key)", "runtime/type");
    return present(objectAt(a.pos(0) as Obj, a.pos(1)), () => (a.count === 3 ? a.pos(2) : null));
  },
  keys: entries((e) => e.map(([k]) => k)),
  values: entries((e) => e.map(([, v]) => v)),
  items: entries((e) => e.map(([k, v]) => new Tuple([k, v]))),
  tojson,
  string: entries((_e, o) => asString(o)),
  length: entries((e) => BigInt(e.length)),
  dictsort,
  join: () => {
    throw notImplemented("object join not implemented");
  },
};
