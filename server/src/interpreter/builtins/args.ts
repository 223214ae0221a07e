// Binding a call's arguments to a builtin's Python signature, with Python's TypeError wording.
import { Fault } from "../errors";
import type { CallArgs, Value } from "../values";

/** Positional-or-keyword parameters; the result has `undefined` where nothing was passed. */
export function bind(fname: string, params: readonly string[], a: CallArgs, required = 0): (Value | undefined)[] {
  if (a.args.length > params.length) {
    throw Fault.type(`${fname}() takes at most ${params.length} argument${params.length === 1 ? "" : "s"} (${a.args.length} given)`);
  }
  const out: (Value | undefined)[] = params.map((_, i) => a.args[i]);
  if (a.kwargs) {
    for (const [k, v] of a.kwargs) {
      const i = params.indexOf(k);
      if (i < 0) throw Fault.type(`${fname}() got an unexpected keyword argument '${k}'`);
      if (out[i] !== undefined) throw Fault.type(`${fname}() got multiple values for argument '${k}'`);
      out[i] = v;
    }
  }
  for (let i = 0; i < required; i++) {
    if (out[i] === undefined) throw Fault.type(`${fname}() missing required argument '${params[i]}' (pos ${i + 1})`);
  }
  return out;
}

/** Python's default: the value when given, else `dflt`. */
export function opt<T extends Value>(v: Value | undefined, dflt: T): Value {
  return v === undefined ? dflt : v;
}

/** For methods that take positional arguments only (most str methods). */
export function positional(fname: string, a: CallArgs, max: number, min = 0): Value[] {
  if (a.kwargs && a.kwargs.size > 0) throw Fault.type(`${fname}() takes no keyword arguments`);
  if (a.args.length > max || a.args.length < min) {
    const want = min === max ? `exactly ${max}` : a.args.length < min ? `at least ${min}` : `at most ${max}`;
    throw Fault.type(`${fname}() takes ${want} argument${(a.args.length < min ? min : max) === 1 ? "" : "s"} (${a.args.length} given)`);
  }
  return a.args;
}
