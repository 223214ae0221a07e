// Builtins several types share (value.cpp): `default` (default_value), `tojson`, and the fixed
// results None and Undefined give for most filters (empty_value_fn).
import { Undefined, type Value } from "../../interpreter/kit";
import type { Builtin } from "./functions";
import { ensureAscii, toJson } from "./json";
import { strOf } from "./strings";
import { asBool, asString, isArray, isInt, itemsOf, notImplemented } from "./values";

export const defaultValue: Builtin = (a) => {
  a.ensureCount(2, 3);
  const input = a.pos(0);
  const missing = asBool(a.kwargOrPos("boolean", 2)) ? !asBool(input) : input instanceof Undefined || input === null;
  return missing ? a.pos(1) : input;
};

export const tojson: Builtin = (a, rt) => {
  a.ensureCount(1, 5);
  const ascii = a.kwargOrPos("ensure_ascii", 1);
  const indentArg = a.kwargOrPos("indent", 2);
  const separators = a.kwargOrPos("separators", 3);
  const sortKeys = a.kwargOrPos("sort_keys", 4);
  // static_cast<int>: the low 32 bits.
  const indent = isInt(indentArg) ? Number(BigInt.asIntN(32, indentArg)) : -1;
  if (asBool(sortKeys)) throw notImplemented("tojson sort_keys=true not implemented");
  const ensure = asBool(ascii);
  rt.checkSize(indent);
  rt.checkPrinted(a.pos(0), Math.max(0, indent));
  const seps = isArray(separators) ? itemsOf(separators) : [];
  const itemSep = seps.length > 0 ? strOf(asString(seps[0])) : indent < 0 ? ", " : ",";
  const keySep = seps.length > 1 ? strOf(asString(seps[1])) : ": ";
  const json = toJson(a.pos(0), { indent, itemSep, keySep });
  return ensure ? ensureAscii(json) : json;
};

/** empty_value_fn<T>: ignores its arguments and returns T's empty value. */
export const constant =
  (make: () => Value): Builtin =>
  () =>
    make();
