// What a name means at a place: a binding of the template, or one of the names the language and
// the chat-template context provide. Hover, completion and semantic tokens agree through this.
import { CONTEXT_BY_NAME, type Fact, type FieldFact, GLOBALS_BY_NAME, LOOP_VARIABLE, MACRO_VARIABLES_BY_NAME } from "../languageFacts";
import type { Span } from "../document";
import { enclosing, resolveName, type Binding, type ScopeInfo } from "./scope";

export type Meaning =
  | { kind: "binding"; binding: Binding }
  | { kind: "context"; fact: FieldFact }
  | { kind: "global"; fact: Fact }
  | { kind: "loop"; fact: FieldFact }
  | { kind: "macro-variable"; fact: Fact };

/** The binding whose defining name is exactly at `span` (a `set` target, a loop variable, a macro name). */
export function bindingDefinedAt(info: ScopeInfo, span: Span): Binding | null {
  return info.bindings.find((b) => b.nameSpan.start === span.start && b.nameSpan.end === span.end) ?? null;
}

/** The meaning of `name` used at `offset`; null for a name nothing defines. */
export function meaningOf(info: ScopeInfo, name: string, offset: number): Meaning | null {
  const binding = resolveName(info, name, offset);
  if (binding) return { kind: "binding", binding };
  if (name === "loop" && enclosing(info, offset, "For")) return { kind: "loop", fact: LOOP_VARIABLE };
  const macroVar = MACRO_VARIABLES_BY_NAME.get(name);
  if (macroVar && enclosing(info, offset, "Macro")) return { kind: "macro-variable", fact: macroVar };
  const context = CONTEXT_BY_NAME.get(name);
  if (context) return { kind: "context", fact: context };
  const global = GLOBALS_BY_NAME.get(name);
  if (global) return { kind: "global", fact: global };
  return null;
}
