// What a debugger sees of a render: a hook the evaluator calls before each statement (template text excepted)
// and around each macro or caller body, and the runtime it is given to read a paused render as the engine sees
// it. Without a hook a render pays one field check per statement and per macro call (see Evaluator.debug).
import type * as A from "../parser";
import type { Dialect } from "./dialect";
import { PyDict } from "./dict";
import { LoopContext } from "./loop";
import type { Output } from "./output";
import type { Scope } from "./scope";
import { Namespace, Tuple, type Value } from "./values";

export interface DebugHook {
  /** Once, before the template body runs: the runtime to read the render with, and the render's output. */
  attach(runtime: DebugRuntime, output: Output): void;
  /**
   * Before a statement runs. `out` is the buffer it writes to (a macro's or a set block's, or the render's);
   * `depth` counts the macro calls (and recursive loop calls) it runs inside.
   */
  statement(node: A.Stmt, scope: Scope, out: Output, depth: number): void;
  /** A macro's or a call block's caller body starts, its arguments bound in `scope`; `depth` is its statements'. */
  enter(node: A.Macro | A.CallBlock, scope: Scope, depth: number): void;
  /** That body returned normally (a body a fault ends gets no `leave`: the next statement's depth says where it is). */
  leave(): void;
}

/** The evaluator as a paused render's reader. */
export interface DebugRuntime {
  readonly dialect: Dialect;
  /** The template context the engine renders with (after the dialect's own changes to it). */
  readonly context: PyDict;
  /** An expression evaluated in `scope` as the engine would; throws a Fault (its steps count toward the limit). */
  evaluate(source: string, scope: Scope): Value;
  truthy(v: Value): boolean;
  /** How the engine prints the value (`{{ v }}`). */
  str(v: Value): string;
  /** How the engine prints the value inside a list (its repr: a string quoted as the engine quotes it). */
  repr(v: Value): string;
}

/** The `loop` attributes a debugger lists (its methods left out). */
const LOOP_ATTRIBUTES = ["index", "index0", "revindex", "revindex0", "first", "last", "length", "depth", "depth0", "previtem", "nextitem"];

/** A value's named parts, for a debugger's tree: items, keys, attributes; null for a value without parts. */
export function debugChildren(v: Value): [string, Value][] | null {
  if (Array.isArray(v)) return v.map((x, i) => [String(i), x]);
  if (v instanceof Tuple) return v.items.map((x, i) => [v.fields?.[i] ?? String(i), x]);
  if (v instanceof PyDict) return [...v.entries()].map(([k, x]) => [typeof k === "string" ? k : String(k), x]);
  if (v instanceof Namespace) return [...v.attrs];
  if (v instanceof LoopContext) return LOOP_ATTRIBUTES.map((name) => [name, v.attr(name) ?? null]);
  return null;
}

/** The names a scope itself holds and the scopes around it, innermost first. */
export function scopeChain(scope: Scope): Scope[] {
  const chain: Scope[] = [];
  for (let s: Scope | null = scope; s !== null; s = s.parent) chain.push(s);
  return chain;
}
