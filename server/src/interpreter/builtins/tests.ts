// Jinja2's tests (jinja2/tests.py, 3.1): `x is defined`, `x is string`, `n is divisibleby 3` ….
import { own, type Runtime, type TestFn } from "../dialect";
import { DictView, PyDict } from "../dict";
import { compare, eq } from "../python/compare";
import { arith } from "../python/ops";
import { Undefined } from "../undefined";
import { Callable, Markup, PyIterator, PyRange, Tuple, type CallArgs, type Value } from "../values";
import { bind } from "./args";
import { strMethods } from "./strMethods";

function one(fname: string, a: CallArgs): Value {
  return bind(fname, ["other"], a, 1)[0]!;
}

function mod(rt: Runtime, v: Value, n: Value): Value {
  return arith("%", v, n, rt);
}

const cmp =
  (op: "==" | "!=" | "<" | "<=" | ">" | ">=", fname: string): TestFn =>
  (_rt, v, a) =>
    compare(op, v, one(fname, a));

function strTest(name: "islower" | "isupper"): TestFn {
  return (rt, v) => strMethods[name](rt, rt.str(v), { args: [], kwargs: null }) as boolean;
}

export const tests: Record<string, TestFn> = {
  boolean: (_rt, v) => typeof v === "boolean",
  // Undefined defines __call__ (to raise), so Python's callable() says True.
  callable: (_rt, v) => v instanceof Callable || v instanceof Undefined,
  defined: (_rt, v) => !(v instanceof Undefined),
  divisibleby: (rt, v, a) => eq(mod(rt, v, one("test_divisibleby", a)), 0n),
  escaped: (_rt, v) => v instanceof Markup,
  even: (rt, v) => eq(mod(rt, v, 2n), 0n),
  false: (_rt, v) => v === false,
  filter: (rt, v) => typeof v === "string" && own(rt.dialect.filters, v) !== undefined,
  float: (_rt, v) => typeof v === "number",
  in: (_rt, v, a) => compare("in", v, one("test_in", a)),
  integer: (_rt, v) => typeof v === "bigint",
  iterable: (_rt, v) =>
    typeof v === "string" ||
    Array.isArray(v) ||
    v instanceof PyDict ||
    v instanceof Tuple ||
    v instanceof Undefined ||
    v instanceof Markup ||
    v instanceof PyRange ||
    v instanceof DictView ||
    v instanceof PyIterator,
  lower: strTest("islower"),
  mapping: (_rt, v) => v instanceof PyDict,
  none: (_rt, v) => v === null,
  number: (_rt, v) => typeof v === "bigint" || typeof v === "number" || typeof v === "boolean",
  odd: (rt, v) => eq(mod(rt, v, 2n), 1n),
  sameas: (_rt, v, a) => {
    const other = one("test_sameas", a);
    return typeof v === "object" && v !== null ? v === other : typeof v === typeof other && eq(v, other);
  },
  sequence: (_rt, v) =>
    typeof v === "string" ||
    Array.isArray(v) ||
    v instanceof PyDict ||
    v instanceof Tuple ||
    v instanceof Undefined ||
    v instanceof Markup ||
    v instanceof PyRange,
  string: (_rt, v) => typeof v === "string" || v instanceof Markup,
  test: (rt, v) => typeof v === "string" && own(rt.dialect.tests, v) !== undefined,
  true: (_rt, v) => v === true,
  undefined: (_rt, v) => v instanceof Undefined,
  upper: strTest("isupper"),
  eq: cmp("==", "eq"),
  ne: cmp("!=", "ne"),
  lt: cmp("<", "lt"),
  le: cmp("<=", "le"),
  gt: cmp(">", "gt"),
  ge: cmp(">=", "ge"),
};
Object.assign(tests, {
  "==": tests.eq,
  equalto: tests.eq,
  "!=": tests.ne,
  "<": tests.lt,
  lessthan: tests.lt,
  "<=": tests.le,
  ">": tests.gt,
  greaterthan: tests.gt,
  ">=": tests.ge,
});
