// Variable scopes, shaped after the frames Jinja2 compiles to: the template body, each loop
// iteration (so a `set` in a loop never leaks out, and each iteration starts from the outer
// values), macro calls (closing over the scope the macro was defined in), with/filter/set blocks.
// `if` makes none. Name lookup falls back to the context, then the dialect's globals.
import type { Value } from "./values";

export class Scope {
  // Most scopes hold a loop target and `loop`, or one or two macro parameters: two inline slots
  // make those allocation-free; more names go to a Map.
  private n0: string | null = null;
  private v0: Value = null;
  private n1: string | null = null;
  private v1: Value = null;
  private more: Map<string, Value> | null = null;

  constructor(readonly parent: Scope | null) {}

  get(name: string): Value | undefined {
    for (let s: Scope | null = this; s !== null; s = s.parent) {
      if (s.n0 === name) return s.v0;
      if (s.n1 === name) return s.v1;
      if (s.more !== null) {
        const v = s.more.get(name);
        if (v !== undefined) return v;
      }
    }
    return undefined;
  }

  set(name: string, v: Value): void {
    if (this.n0 === null || this.n0 === name) {
      this.n0 = name;
      this.v0 = v;
    } else if (this.n1 === null || this.n1 === name) {
      this.n1 = name;
      this.v1 = v;
    } else {
      (this.more ??= new Map()).set(name, v);
    }
  }

  /** The names this scope itself holds, in no particular order (for a debugger's view). */
  entries(): [string, Value][] {
    const own: [string, Value][] = [];
    if (this.n0 !== null) own.push([this.n0, this.v0]);
    if (this.n1 !== null) own.push([this.n1, this.v1]);
    if (this.more !== null) own.push(...this.more);
    return own;
  }
}
