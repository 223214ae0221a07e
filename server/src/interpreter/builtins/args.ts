// Binding a call's arguments to a builtin's Python signature, with Python's TypeError wording.
import { Fault } from "../errors";
import type { CallArgs, Value } from "../values";

/** Positional-or-keyword parameters; the result has `undefined` where nothing was passed. */
export function bind(fname: string, params: readonly string[], a: CallArgs, required = 0): (Value | undefined)[] {
  // Positional arguments only, all required ones given: the caller's array is the answer.
  if (a.kwargs === null && a.args.length <= params.length && a.args.length >= required) return a.args;
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
  const missing = params
    .slice(0, required)
    .filter((_, i) => out[i] === undefined)
    .map((p) => `'${p}'`);
  if (missing.length) {
    const list =
      missing.length === 1
        ? missing[0]
        : missing.length === 2
          ? missing.join(" and ")
          : `${missing.slice(0, -1).join(", ")}, and ${missing[missing.length - 1]}`;
    throw Fault.type(`${fname}() missing ${missing.length} required positional argument${missing.length === 1 ? "" : "s"}: ${list}`);
  }
  return out;
}

/** Python's default: the value when given, else `dflt`. */
export function opt<T extends Value>(v: Value | undefined, dflt: T): Value {
  return v === undefined ? dflt : v;
}

/** For methods that take positional arguments only; `qualname` as CPython names them ("str.zfill"). */
export function positional(qualname: string, a: CallArgs, max: number, min = 0, varargs = false): Value[] {
  const n = a.args.length;
  const name = qualname.slice(qualname.indexOf(".") + 1);
  if (a.kwargs && a.kwargs.size > 0) throw Fault.type(`${qualname}() takes no keyword arguments`);
  if (n >= min && n <= max) return a.args;
  // CPython's wording differs between one-argument (METH_O), no-argument and other methods.
  if (max === 0) throw Fault.type(`${qualname}() takes no arguments (${n} given)`);
  if (min === 1 && max === 1) throw Fault.type(`${qualname}() takes exactly one argument (${n} given)`);
  const [bound, k] = n < min ? ["least", min] : ["most", max];
  const s = k === 1 ? "" : "s";
  // METH_VARARGS methods (str.find & co.) use the older PyArg_ParseTuple wording.
  if (varargs) throw Fault.type(`${name}() takes at ${bound} ${k} argument${s} (${n} given)`);
  throw Fault.type(`${name} expected at ${bound} ${k} argument${s}, got ${n}`);
}
