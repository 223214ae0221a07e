// @huggingface/jinja's tests (Environment.TESTS): `true`/`false` are the booleans themselves,
// `odd`/`even` refuse floats, `iterable` is lists and strings only, `defined` is true for null.
import { Callable, Fault, LoopContext, PyDict, type TestFn, Undefined, type Value } from "../../interpreter/kit";
import { arrayOf, isInt, isNumeric, num, typeOf } from "./values";

type Test = (v: Value, other?: Value) => boolean;

function parity(name: "odd" | "even"): Test {
  return (v) => {
    if (!isInt(v)) throw new Fault("runtime/type", "Error", `cannot ${name} on ${typeOf(v)}`);
    // On the double the engine holds: 9007199254740993 is 9007199254740992 there; NaN is odd.
    return name === "odd" ? num(v) % 2 !== 0 : num(v) % 2 === 0;
  };
}

/** `a.value === b.value`; the engine crashes when there is no `b` (a test has no arguments). */
const equalto: Test = (a, b) => {
  if (b === undefined) throw new Fault("runtime/type", "TypeError", "Cannot read properties of undefined (reading 'value')");
  const raw = (x: Value) => (isInt(x) ? num(x) : x === null || x instanceof Undefined ? undefined : x);
  return raw(a) === raw(b);
};

const isObject = (v: Value) => v instanceof PyDict || v instanceof LoopContext;

/** By name, as selectattr/rejectattr also call them (with the comparison value). */
export const hfTests: Readonly<Record<string, Test>> = {
  boolean: (v) => typeof v === "boolean",
  callable: (v) => v instanceof Callable && !(v instanceof LoopContext),
  odd: parity("odd"),
  even: parity("even"),
  false: (v) => v === false,
  true: (v) => v === true,
  none: (v) => v === null,
  string: (v) => typeof v === "string",
  number: isNumeric,
  integer: isInt,
  iterable: (v) => Array.isArray(v) || typeof v === "string",
  mapping: isObject,
  sequence: (v) => arrayOf(v) !== null || isObject(v) || typeof v === "string",
  lower: (v) => typeof v === "string" && v === v.toLowerCase(),
  upper: (v) => typeof v === "string" && v === v.toUpperCase(),
  defined: (v) => !(v instanceof Undefined),
  undefined: (v) => v instanceof Undefined,
  equalto,
  eq: equalto,
};

export const hfTestFns: Readonly<Record<string, TestFn>> = Object.fromEntries(
  Object.entries(hfTests).map(([k, t]) => [k, (_rt: unknown, v: Value) => t(v)]),
);
