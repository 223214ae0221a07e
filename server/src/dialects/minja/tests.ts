// minja's `is` tests: exactly twelve names, hard-coded in BinaryOpExpr::do_evaluate; any other name
// raises "Unknown type for 'is' operator" when evaluated (corpus Apertus-8B-Instruct: `is undefined`).
// `true`/`false` test truthiness, not the boolean (micro:is-true-false: `0 is false` → True).
import type { TestFn, Value } from "../../interpreter/kit";
import { arrayItems, isMinjaNull, isObject, truthy } from "./values";

const test =
  (f: (v: Value) => boolean): TestFn =>
  (_rt, v) =>
    f(v);

export const minjaTests: Readonly<Record<string, TestFn>> = {
  none: test(isMinjaNull),
  boolean: test((v) => typeof v === "boolean"),
  integer: test((v) => typeof v === "bigint"),
  float: test((v) => typeof v === "number"),
  number: test((v) => typeof v === "bigint" || typeof v === "number"),
  string: test((v) => typeof v === "string"),
  mapping: test(isObject),
  iterable: test((v) => arrayItems(v) !== null || isObject(v) || typeof v === "string"),
  sequence: test((v) => arrayItems(v) !== null),
  defined: test((v) => !isMinjaNull(v)),
  true: test(truthy),
  false: test((v) => !truthy(v)),
};
