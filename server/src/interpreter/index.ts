// The interpreter's face for its consumers: render a template with a dialect, the values and JSON a render takes
// and gives, its errors and limits, and the Dialect type (with the table types a wrapped dialect replaces). What a
// dialect is built from (builtins, Python's semantics, the runtime's values) is the dialect kit, kit.ts, which only
// server/src/dialects imports.
export { Callable } from "./values";
export type { CallArgs, Value } from "./values";
export { debugChildren, scopeChain } from "./debug";
export type { DebugHook, DebugRuntime } from "./debug";
export { own } from "./dialect";
export type { Dialect, FilterFn, MethodTable, Operators, Refusal, TestFn, WallClock } from "./dialect";
export { PyDict } from "./dict";
export type { CauseCode, RenderError } from "./errors";
export { JsonError, fromJS, parseJson } from "./json";
export { DEFAULT_LIMITS } from "./limits";
export type { Limits } from "./limits";
export type { Chunk, Output } from "./output";
export type { Scope } from "./scope";
export { jsonDumps } from "./python/jsonDumps";
export { localNow, parseWallClock, render } from "./render";
export type { RenderResult } from "./render";
export { Tuple, typeName } from "./values";
