// minja's two ways of binding call arguments (minja.hpp): `ArgumentsValue::expectArgs` for methods and
// some builtins, and `simple_function`'s named parameters for most builtins.
import { type CallArgs, Fault, type Value } from "../../interpreter/kit";

/** SIZE_MAX, which `expectArgs` prints for "any number". */
export const ANY = Number.MAX_SAFE_INTEGER;

export function expectArgs(what: string, a: CallArgs, pos: [number, number], kw: [number, number]): void {
  const nk = a.kwargs?.size ?? 0;
  if (a.args.length < pos[0] || a.args.length > pos[1] || nk < kw[0] || nk > kw[1]) {
    const n = (x: number) => (x === ANY ? "18446744073709551615" : String(x));
    throw Fault.type(
      `${what} must have between ${n(pos[0])} and ${n(pos[1])} positional arguments and between ${n(kw[0])} and ${n(kw[1])} keyword arguments`,
    );
  }
}

/**
 * `simple_function(name, params, fn)`: positionals fill the parameters in order, keywords by name;
 * a parameter nobody passed is absent (`undefined` here), not null.
 */
export function simpleArgs(fname: string, params: readonly string[], a: CallArgs): Map<string, Value> {
  if (a.args.length > params.length) throw Fault.type(`Too many positional params for ${fname}`);
  const out = new Map<string, Value>();
  a.args.forEach((v, i) => out.set(params[i], v));
  if (a.kwargs) {
    for (const [k, v] of a.kwargs) {
      if (!params.includes(k)) throw Fault.type(`Unknown argument ${k} for function ${fname}`);
      out.set(k, v);
    }
  }
  return out;
}

/** `args.at(name)` on a parameter nobody passed: nlohmann's ordered_map::at. */
export function required(args: Map<string, Value>, name: string): Value {
  const v = args.get(name);
  if (v === undefined) throw new Fault("runtime/key", null, "key not found");
  return v;
}
