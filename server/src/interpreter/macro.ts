// Macros as Jinja2 calls them (jinja2/runtime.py, Macro.__call__): positional then keyword
// binding, `caller`/`varargs`/`kwargs` only for macros whose body uses those names, missing
// parameters as an Undefined that says so, and Jinja2's TypeError wording otherwise.
import type * as A from "../parser";
import { PyDict } from "./dict";
import { Fault } from "./errors";
import type { Bound, MacroUses, Runtime } from "./dialect";
import { Undefined } from "./undefined";
import { Callable, Tuple, type CallArgs, type Value } from "./values";
import { children } from "../parser";

const usesCache = new WeakMap<A.Node, MacroUses>();

/** Which special names the body reads (Jinja2 decides this statically, as done here). */
export function macroUses(node: A.Macro | A.CallBlock): MacroUses {
  let u = usesCache.get(node);
  if (!u) {
    const found: MacroUses = { caller: false, varargs: false, kwargs: false };
    const visit = (n: A.Node): void => {
      if (n.kind === "Name" && (n.name === "caller" || n.name === "varargs" || n.name === "kwargs")) found[n.name] = true;
      for (const c of children(n)) visit(c);
    };
    node.body.forEach(visit);
    usesCache.set(node, (u = found));
  }
  return u;
}

export class Macro extends Callable {
  constructor(
    readonly name: string,
    readonly params: readonly A.Param[],
    private readonly uses: MacroUses,
    private readonly invoke: (bound: Bound, self: Macro) => Value,
  ) {
    super();
  }

  get typeName(): string {
    return "Macro";
  }

  call(rt: Runtime, a: CallArgs): Value {
    const bind = rt.dialect.bindMacroArgs;
    if (bind) return this.invoke(bind(this.name, this.params, a, this.uses), this);
    const n = this.params.length;
    const values: (Value | undefined)[] = a.args.slice(0, n);
    const kwargs = a.kwargs ? new Map(a.kwargs) : new Map<string, Value>();
    for (let i = values.length; i < n; i++) {
      const name = this.params[i].name;
      values.push(kwargs.get(name));
      kwargs.delete(name);
    }
    const extra = new Map<string, Value>();
    // A `caller` parameter (with a default: see the jinja2 dialect's refusal) takes the call
    // block's caller like any keyword argument; only an implicit one is added after the parameters.
    if (this.uses.caller && !this.params.some((p) => p.name === "caller")) {
      extra.set("caller", kwargs.get("caller") ?? Undefined.hint("No caller defined"));
      kwargs.delete("caller");
    }
    if (this.uses.kwargs) extra.set("kwargs", PyDict.from(kwargs));
    else if (kwargs.size > 0) {
      if (kwargs.has("caller"))
        throw Fault.type(`macro '${this.name}' was invoked with two values for the special caller argument. This is most likely a bug.`);
      throw Fault.type(`macro '${this.name}' takes no keyword argument '${kwargs.keys().next().value}'`);
    }
    if (this.uses.varargs) extra.set("varargs", new Tuple(a.args.slice(n)));
    else if (a.args.length > n) throw Fault.type(`macro '${this.name}' takes not more than ${n} argument(s)`);
    return this.invoke({ values, extra }, this);
  }

  override pyRepr(): string {
    // The caller of a call block is Jinja2's anonymous macro.
    return this.name === "caller" ? "<Macro anonymous>" : `<Macro '${this.name}'>`;
  }
}
