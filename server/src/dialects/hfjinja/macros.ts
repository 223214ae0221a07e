// How @huggingface/jinja binds a macro call (Interpreter.bindMacroArguments): positionals, then
// keywords by name; `varargs` (a list) and `kwargs` only where the body reads them. A call block's
// `caller` reaches the macro through the call site, so an unused one is simply ignored.
import type * as A from "../../parser";
import { type Bound, type CallArgs, Fault, type MacroUses, PyDict, Undefined, type Value } from "../../interpreter/kit";

export function bindMacroArgs(name: string, params: readonly A.Param[], a: CallArgs, uses: MacroUses): Bound {
  const kwargs = new Map(a.kwargs ?? []);
  const extra = new Map<string, Value>();
  const caller = kwargs.get("caller");
  kwargs.delete("caller");
  if (uses.caller) extra.set("caller", caller ?? Undefined.hint("No caller defined"));
  const values = params.map((p, i) => {
    if (a.args[i] !== undefined) return a.args[i];
    const v = kwargs.get(p.name);
    kwargs.delete(p.name);
    return v;
  });
  if (uses.kwargs) extra.set("kwargs", PyDict.from(kwargs));
  else if (kwargs.size > 0)
    throw new Fault("runtime/type", "Error", `macro '${name}' takes no keyword argument '${kwargs.keys().next().value}'`);
  if (uses.varargs) extra.set("varargs", a.args.slice(params.length));
  else if (a.args.length > params.length)
    throw new Fault("runtime/type", "Error", `macro '${name}' takes not more than ${params.length} argument(s)`);
  return { values, extra };
}
