// What builtins (filters, tests, methods, globals) and operators see of the running interpreter.
// They get it as an argument instead of importing the evaluator, so a dialect can reuse them.
import type { Dialect } from "../dialects/dialect";
import type { CallArgs, Value } from "./values";

export interface Runtime {
  readonly dialect: Dialect;
  /** How the engine turns a value into output text (`{{ v }}`, `~`, `| string`). */
  str(v: Value): string;
  call(fn: Value, a: CallArgs): Value;
  getattr(obj: Value, name: string): Value;
  getitem(obj: Value, key: Value): Value;
  iterate(v: Value): Iterable<Value>;
  /** Applies a filter/test by name, as `map('upper')` and `select('odd')` do. */
  filter(name: string, v: Value, a: CallArgs): Value;
  test(name: string, v: Value, a: CallArgs): boolean;
  /** The wall-clock time strftime_now reports (pinned by the render options). */
  now(): WallClock;
  /** Counts work done inside builtins, so their loops spend the step budget too. */
  tick(n: number): void;
  /** Refuses (limit/output) to build a string or list longer than the output limit. */
  checkSize(length: number): void;
}

/** A naive local date-time, as Python's datetime.now() gives it. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
}

export const NO_ARGS: CallArgs = Object.freeze({ args: Object.freeze([]) as unknown as Value[], kwargs: null });
