// llama.cpp's tests (value.cpp, global_builtins: the "test_is_*" entries). Missing next to Jinja2:
// `le`, `escaped`-like HTML tests and the operator spellings; `sameas`, `escaped` and `filter`
// throw NotImplemented. `number` and `integer` exclude booleans, `iterable`/`sequence` mean array,
// string or undefined (not a mapping), `lower`/`upper`/`odd`/`even` demand their exact type.
import { Fault, Undefined, type Value } from "../../interpreter/kit";
import type { Builtin, BuiltinTable } from "./functions";
import { isIn, valueCompare, type CompareOp } from "./ops";
import { isLower, isStr, isUpper, strOf, type LStr } from "./strings";
import { isArray, isFunc, isObject, notImplemented } from "./values";

function typeTest(is: (v: Value) => boolean): Builtin {
  return (a) => {
    a.ensureCount(1);
    return is(a.pos(0));
  };
}

function compare(op: CompareOp): Builtin {
  return (a) => {
    a.ensureCount(2, 2);
    return valueCompare(a.pos(0), a.pos(1), op);
  };
}

function parity(odd: boolean): Builtin {
  return (a) => {
    a.ensureVals(["int"]);
    return ((a.pos(0) as bigint) % 2n !== 0n) === odd;
  };
}

function strictBool(want: boolean): Builtin {
  return (a) => {
    a.ensureCount(1);
    return a.pos(0) === want;
  };
}

function caseTest(is: (s: LStr) => boolean): Builtin {
  return (a) => {
    a.ensureVals(["string"]);
    return is(a.pos(0) as LStr);
  };
}

function notImplementedTest(name: string): Builtin {
  return () => {
    throw notImplemented(`${name} test not implemented`);
  };
}

export const llamaTests: BuiltinTable = {
  boolean: typeTest((v) => typeof v === "boolean"),
  callable: typeTest(isFunc),
  odd: parity(true),
  even: parity(false),
  false: strictBool(false),
  true: strictBool(true),
  divisibleby: (a) => {
    a.ensureVals(["int", "int"]);
    const [x, y] = [a.pos(0) as bigint, a.pos(1) as bigint];
    // int64 `%` by zero (or INT64_MIN % -1) kills the engine's process with SIGFPE.
    if (y === 0n || (y === -1n && x === -(1n << 63n))) throw Fault.notReproduced("divisibleby(0) crashes llama.cpp (SIGFPE)");
    return x % y === 0n;
  },
  string: typeTest(isStr),
  integer: typeTest((v) => typeof v === "bigint"),
  float: typeTest((v) => typeof v === "number"),
  number: typeTest((v) => typeof v === "bigint" || typeof v === "number"),
  iterable: typeTest((v) => isArray(v) || isStr(v) || v instanceof Undefined),
  sequence: typeTest((v) => isArray(v) || isStr(v) || v instanceof Undefined),
  mapping: typeTest(isObject),
  lower: caseTest(isLower),
  upper: caseTest(isUpper),
  none: typeTest((v) => v === null),
  defined: typeTest((v) => !(v instanceof Undefined)),
  undefined: typeTest((v) => v instanceof Undefined),
  eq: compare("eq"),
  equalto: compare("eq"),
  ge: compare("ge"),
  gt: compare("gt"),
  greaterthan: compare("gt"),
  lt: compare("lt"),
  lessthan: compare("lt"),
  ne: compare("ne"),
  in: (a) => {
    a.ensureCount(2);
    return isIn(a.pos(0), a.pos(1));
  },
  test: (a) => {
    a.ensureVals(["string"]);
    return Object.hasOwn(llamaTests, strOf(a.pos(0) as LStr));
  },
  sameas: notImplementedTest("sameas"),
  escaped: notImplementedTest("escaped"),
  filter: notImplementedTest("filter"),
};
