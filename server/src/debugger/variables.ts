// A paused render's values as a debugger's variables: each shown as the engine prints it inside a list (its repr:
// a minja string quoted as minja quotes it), with its items, keys or attributes behind a reference. References
// live until the render resumes.
import { debugChildren, type DebugRuntime, typeName, type Value } from "../interpreter";
import type { VariableInfo } from "./protocol";

/** Longest value text shown; the rest is on the value's children or in the output. */
const MAX_SHOWN = 2000;
/** Most children listed for one value. */
const MAX_CHILDREN = 1000;

type Handle = { kind: "value"; value: Value } | { kind: "names"; entries: [string, Value][] };

export class VariableStore {
  private handles: Handle[] = [];

  constructor(private readonly rt: DebugRuntime) {}

  /** Forgets every reference (the render moves on, the values may change). */
  clear(): void {
    this.handles = [];
  }

  /** A reference to a list of named values (a scope). */
  names(entries: [string, Value][]): number {
    this.handles.push({ kind: "names", entries });
    return this.handles.length;
  }

  variable(name: string, value: Value): VariableInfo {
    const children = debugChildren(value);
    let variablesReference = 0;
    if (children !== null && children.length > 0) {
      this.handles.push({ kind: "value", value });
      variablesReference = this.handles.length;
    }
    return { name, value: this.shown(value), type: typeName(value), variablesReference };
  }

  variables(ref: number): VariableInfo[] {
    const h = this.handles[ref - 1];
    if (!h) return [];
    const entries = h.kind === "names" ? h.entries : (debugChildren(h.value) ?? []);
    return entries.slice(0, MAX_CHILDREN).map(([name, v]) => this.variable(name, v));
  }

  /** The engine's own text for a value; a value it cannot print shows why. */
  shown(value: Value): string {
    let s: string;
    try {
      s = this.rt.repr(value);
    } catch (e) {
      s = `<${(e as Error).message}>`;
    }
    return s.length > MAX_SHOWN ? `${s.slice(0, MAX_SHOWN)}…` : s;
  }
}
