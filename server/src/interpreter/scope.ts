// Variable scopes, shaped after the frames Jinja2 compiles to: the template body, each loop
// iteration (so a `set` in a loop never leaks out, and each iteration starts from the outer
// values), macro calls (closing over the scope the macro was defined in), with/filter/set blocks.
// `if` makes none. Name lookup falls back to the context, then the dialect's globals.
import type { Value } from "./values";

export class Scope {
  private vars: Map<string, Value> | null = null;

  constructor(readonly parent: Scope | null) {}

  get(name: string): Value | undefined {
    for (let s: Scope | null = this; s !== null; s = s.parent) {
      if (s.vars !== null) {
        const v = s.vars.get(name);
        if (v !== undefined) return v;
      }
    }
    return undefined;
  }

  set(name: string, v: Value): void {
    (this.vars ??= new Map()).set(name, v);
  }
}
