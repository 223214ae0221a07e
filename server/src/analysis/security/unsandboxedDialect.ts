// The dialect the security renders run in: Jinja2 as HF runs it, except that lists can be changed the
// way an unsandboxed Jinja2 lets them be, and every `_`-name the template reaches is recorded. A
// payload that builds a name piece by piece (`ns.k.append('__')`, `ns.k.append('class')`, …
// `x[ns.k|join]`) is stopped by the immutable sandbox at its first `append`, long before the name
// exists, and the sandbox's answer to `x['__class__']` prints as nothing: the probe has to see it.
import type { Dialect, MethodTable, Value } from "../../interpreter";
import { dialectFor } from "../../dialects";

// Jinja2 3.1.2's sandbox still let pop and clear change a list
const { pop, clear } = dialectFor("jinja2-3.1.2")!.methods.list;

const mutating: MethodTable = {
  pop,
  clear,
  append: (_rt, self, a) => {
    (self as Value[]).push(a.args[0] ?? null);
    return null;
  },
  extend: (_rt, self, a) => {
    const more = a.args[0];
    if (Array.isArray(more)) (self as Value[]).push(...more);
    return null;
  },
  insert: (_rt, self, a) => {
    (self as Value[]).splice(Number(a.args[0] ?? 0), 0, a.args[1] ?? null);
    return null;
  },
};

/** A fresh probe dialect whose `_`-name accesses go to `reached`. */
export function unsandboxedProbe(reached: Set<string>): Dialect {
  const jinja2 = dialectFor("jinja2")!;
  const note = (name: Value): void => {
    if (typeof name === "string" && name.startsWith("_")) reached.add(name);
  };
  return {
    ...jinja2,
    methods: { ...jinja2.methods, list: { ...jinja2.methods.list, ...mutating } },
    ops: {
      ...jinja2.ops,
      getattr: (obj, name, rt) => (note(name), jinja2.ops.getattr(obj, name, rt)),
      getitem: (obj, key, rt) => (note(key), jinja2.ops.getitem(obj, key, rt)),
    },
  };
}
