// The dialect kit: what an engine's dialect is built from, for server/src/dialects only (a dependency rule
// enforces it): Jinja2's builtin tables, Python's semantics on values, the runtime a builtin is given, and the
// interpreter's own value classes. Everything of the consumers' face (index.ts) too, so a dialect imports one place.
export * from "./index";
export { dictMethods, floatMethods, intMethods, listClear, listMethods, listPop, tupleMethods } from "./builtins/containerMethods";
export { hfGlobals, jinjaGlobals } from "./builtins/globals";
export { sequenceFilters } from "./builtins/sequenceFilters";
export { doXmlattr, stringFilters } from "./builtins/stringFilters";
export { strMethods } from "./builtins/strMethods";
export { tests } from "./builtins/tests";
export { doInt, valueFilters } from "./builtins/valueFilters";
export { BuiltinFunction } from "./callables";
export { fixedPoint, signOf, significant } from "./decimalDigits";
export type { ArithOp, Bound, CompareOp, MacroUses, Runtime } from "./dialect";
export { Fault } from "./errors";
export { LoopContext } from "./loop";
export { macroUses } from "./macro";
export { getattr, getitem, slice } from "./python/access";
export { compare, truthy } from "./python/compare";
export { fixed } from "./python/formatNumber";
export { iterate, unpack } from "./python/iterate";
export { arith, concat, neg, pos } from "./python/ops";
export { strValue } from "./python/repr";
export { strftime } from "./python/strftime";
export { codePoints, compareStr } from "./python/text";
export { Undefined } from "./undefined";
export { Namespace, PyObject, PyRange } from "./values";
export type { Sized } from "./valueSize";
