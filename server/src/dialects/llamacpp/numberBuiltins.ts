// The builtins of Integer, Float and Boolean (value.cpp: value_int_t, value_float_t, value_bool_t
// ::get_builtins). `string` and `safe` of a number are tojson, so a float goes through %g there and
// through %f when printed: {{ 12345678.5|string }} is "1.23457e+07", {{ 12345678.5 }} "12345678.5".
import { defaultValue, tojson } from "./commonBuiltins";
import type { BuiltinTable } from "./functions";
import { castInt, INT64_MIN } from "./values";

export const intBuiltins: BuiltinTable = {
  default: defaultValue,
  abs: (a) => {
    a.ensureVals(["int"]);
    const v = a.pos(0) as bigint;
    return v < 0n && v !== INT64_MIN ? -v : v;
  },
  int: (a) => {
    a.ensureVals(["int"]);
    return a.pos(0);
  },
  float: (a) => {
    a.ensureVals(["int"]);
    return Number(a.pos(0) as bigint);
  },
  safe: tojson,
  string: tojson,
  tojson,
};

export const floatBuiltins: BuiltinTable = {
  default: defaultValue,
  abs: (a) => {
    a.ensureVals(["float"]);
    const v = a.pos(0) as number;
    return v < 0 ? -v : v;
  },
  int: (a) => {
    a.ensureVals(["float"]);
    return castInt(a.pos(0) as number);
  },
  float: (a) => {
    a.ensureVals(["float"]);
    return a.pos(0);
  },
  safe: tojson,
  string: tojson,
  tojson,
};

const boolString: BuiltinTable[string] = (a) => {
  a.ensureVals(["bool"]);
  return a.pos(0) ? "True" : "False";
};

export const boolBuiltins: BuiltinTable = {
  default: defaultValue,
  int: (a) => {
    a.ensureVals(["bool"]);
    return a.pos(0) ? 1n : 0n;
  },
  float: (a) => {
    a.ensureVals(["bool"]);
    return a.pos(0) ? 1 : 0;
  },
  safe: boolString,
  string: boolString,
  tojson,
};
