// How a llama.cpp macro binds its arguments (runtime.cpp: bind_parameters). Keyword arguments count
// as arguments: parameter i takes its keyword, else the positional argument i, while i is below the
// number of arguments given, and only past that does its default apply — so with
// `{% macro m(a, b=2) %}`, `m(b=3)` binds a to Undefined and b to 2 (measured "2"). A parameter
// without default past the given arguments raises; extra arguments are ignored. `caller` is not an
// argument but a variable of the call (call_statement sets it in the macro's context).
import { type Bound, type CallArgs, Undefined, type Value } from "../../interpreter/kit";
import type * as A from "../../parser";
import { paramProblem } from "./parser";
import { fault, undef } from "./values";

export function bindMacroArgs(name: string, params: readonly A.Param[], a: CallArgs): Bound {
  const kwargs = new Map(a.kwargs ?? []);
  const extra = new Map<string, Value>();
  const caller = kwargs.get("caller");
  if (caller !== undefined) {
    extra.set("caller", caller);
    kwargs.delete("caller");
  }
  const given = a.args.length + kwargs.size;
  const values = params.map((p, i) => {
    const problem = paramProblem(p);
    if (problem === "keyword") throw fault(`Keyword argument key must be an identifier in '${name}'`, "runtime/type");
    if (problem === "other" && i < given) throw fault(`Invalid parameter type in '${name}'`, "runtime/type");
    if (i >= given) {
      if (p.default) return undefined;
      throw fault(`Not enough arguments provided to '${name}'`, "runtime/type");
    }
    const kw = kwargs.get(p.name);
    if (kw !== undefined && !(kw instanceof Undefined)) return kw;
    return i < a.args.length ? a.args[i] : kw !== undefined ? kw : undef();
  });
  return { values, extra };
}
