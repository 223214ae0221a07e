// Rename: a macro, a macro parameter, a `set` variable, a loop variable or a namespace attribute, at every place
// references.ts finds it. Refused, with the reason, on anything the template does not define (a context variable,
// a builtin, a filter, a keyword), for a new name that is no identifier or a keyword, that the caller's context or
// a builtin already means, or that another local holds where the symbol is (capture either way); and refused when
// any engine renders any built-in scenario otherwise after the edit, which catches what the scope analysis cannot
// see (`ns['x']`, `m(**{'x': 1})`, an engine's own scoping).
import {
  applyEdits,
  BUILTIN_SCENARIOS,
  dialectsOf,
  renderDifference,
  type RenderDifference,
  ServerArgsError,
  type TextEdit,
} from "../analysis";
import { ENGINE_IDS, ENGINE_LABELS } from "../dialects";
import { type Span, TemplateDocument } from "../document";
import { CONTEXT_BY_NAME, EXPRESSION_KEYWORDS_BY_NAME, GLOBALS_BY_NAME, MACRO_VARIABLES_BY_NAME, TAGS_BY_NAME } from "../languageFacts";
import { nodesAt, walk } from "../parser";
import { tokenBefore } from "./cursor";
import type { ValidationOptions } from "./diagnostics";
import { bindingDefinedAt, meaningOf } from "./names";
import { referencesOf, resolveUse, symbolAt, type SymbolAt } from "./references";
import { scopeAt, scopeOf, scopesOf, type Scope, type ScopeInfo } from "./scope";

/** What a rename would replace at the cursor: the name's span and its text, the editor's placeholder. */
export interface RenameTarget {
  span: Span;
  placeholder: string;
}

/** The rename's edits: every definition and use of the symbol. */
export interface RenameEdit {
  edits: TextEdit[];
}

/** Why a rename is refused, in words for the editor to show. */
export interface RenameRefusal {
  refused: string;
}

export type RenameOptions = Pick<ValidationOptions, "scenarios" | "llamaServerArgs">;

const within = (s: Span, offset: number) => s.start <= offset && offset <= s.end;
const quote = (name: string) => `\`${name}\``;

export function prepareRename(doc: TemplateDocument, offset: number): RenameTarget | RenameRefusal {
  const symbol = symbolAt(doc, offset);
  const here = symbol && referencesOf(doc, symbol).find((r) => within(r, offset));
  if (!symbol || !here) return { refused: notRenamable(doc, offset) };
  // for `ns.x`, the namespace's own reads: one no binding reaches leaves its `.x` behind
  const input = inputOf(doc, symbol);
  if (input) return { refused: input };
  return { span: { start: here.start, end: here.end }, placeholder: symbol.attr ?? symbol.name };
}

/**
 * Why a `set` variable is also the caller's input, if it is: it reassigns a context variable (`{% set messages =
 * messages[1:] %}`), or the template reads the name in its scope where no binding reaches (`{% if x is undefined
 * %}{% set x = … %}`, a default; or a macro reading a variable set below it). Its reads then mean the input or the
 * binding by the path taken, which a rename would split. Parameters and loop variables bind for their whole scope,
 * so they are never both.
 */
function inputOf(doc: TemplateDocument, symbol: SymbolAt): string | null {
  if (!symbol.bindings.some((b) => b.kind === "variable" || b.kind === "namespace")) return null;
  const split = "its reads may mean either, and a rename would split them.";
  if (CONTEXT_BY_NAME.has(symbol.name)) return `${quote(symbol.name)} here reassigns the context variable the caller passes: ${split}`;
  const info = scopesOf(doc.template);
  const inScope = scopesTest(info, symbol);
  let free: number | null = null;
  walk(doc.template, (n) => {
    if (free !== null || n.kind !== "Name" || n.name !== symbol.name || !inScope(n.start)) return;
    if (!bindingDefinedAt(info, n) && !resolveUse(info, n.name, n.start)) free = n.start;
  });
  if (free === null) return null;
  // a macro that reads a variable set after it sees that binding when called: the scopes cannot tell it from an input
  return `${quote(symbol.name)} is also read at line ${doc.lines.lineOf(free) + 1}, where no binding of it reaches (the caller's context, or a later one a macro sees when called): ${split}`;
}

/** Whether an offset lies in the scope of one of the symbol's bindings (or a scope inside it). */
function scopesTest(info: ScopeInfo, symbol: SymbolAt): (offset: number) => boolean {
  const scopes = new Set(symbol.bindings.map((b) => scopeOf(info, b)));
  return (offset) => {
    for (let s: Scope | null = scopeAt(info, offset); s; s = s.parent) if (scopes.has(s)) return true;
    return false;
  };
}

/** Why the cursor is on nothing the template defines. */
function notRenamable(doc: TemplateDocument, offset: number): string {
  const path = nodesAt(doc.template, offset);
  const n = path[path.length - 1];
  if (n.kind === "Filter" && within(n.nameSpan, offset)) return `${quote(n.name)} is a filter: the engine defines it, not the template.`;
  if (n.kind === "Test" && within(n.nameSpan, offset)) return `${quote(n.name)} is a test: the engine defines it, not the template.`;
  if (n.kind === "GetAttr" && within(n.attrSpan, offset))
    return `${quote(n.attr)} is an attribute of a value the template does not define: only a namespace's attributes (\`ns.x\`) can be renamed.`;
  if (n.kind === "Name") {
    switch (meaningOf(scopesOf(doc.template), n.name, n.start)?.kind) {
      case "context":
        return `${quote(n.name)} is a context variable: the caller passes it under this name.`;
      case "global":
        return `${quote(n.name)} is a builtin global of the engines.`;
      case "loop":
      case "macro-variable":
        return `${quote(n.name)} is a variable Jinja itself defines here.`;
      default:
        return `${quote(n.name)} is not defined in this template: it can only come from the caller's context.`;
    }
  }
  const t = doc.tokens[tokenBefore(doc.tokens, offset + 1)];
  if (t?.type === "name" && offset <= t.end && isKeyword(t.value)) return `${quote(t.value)} is a keyword.`;
  return "Nothing to rename here: place the cursor on a macro, a parameter, a variable, a loop variable or a namespace attribute.";
}

const isKeyword = (name: string) => EXPRESSION_KEYWORDS_BY_NAME.has(name.toLowerCase()) || TAGS_BY_NAME.has(name);

/** The edit renaming the symbol at `offset` to `newName`, proven to render alike in every engine and scenario; or why not. */
export function rename(doc: TemplateDocument, offset: number, newName: string, options: RenameOptions = {}): RenameEdit | RenameRefusal {
  const target = prepareRename(doc, offset);
  if ("refused" in target) return target;
  const old = target.placeholder;
  if (newName === old) return { edits: [] };
  const symbol = symbolAt(doc, offset)!;
  const problem =
    nameProblem(newName) ?? (symbol.attr === null ? variableConflict(doc, symbol, newName) : attributeConflict(doc, symbol, newName));
  if (problem) return { refused: problem };
  const edits = referencesOf(doc, symbol).map((r) => ({ start: r.start, end: r.end, newText: newName }));
  const after = new TemplateDocument(applyEdits(doc.text, edits));
  const broken = after.problems.find((p) => p.severity === "error");
  if (broken) return { refused: `The renamed template does not parse: ${broken.message}` };
  let dialects: ReturnType<typeof dialectsOf>;
  try {
    dialects = dialectsOf(ENGINE_IDS, options.llamaServerArgs);
  } catch (e) {
    if (!(e instanceof ServerArgsError)) throw e;
    return {
      refused: `The rename cannot be proven harmless: the llama-server flags (chatTemplate.llamaServer.args) cannot be read: ${e.message}`,
    };
  }
  // an error that names the symbol names it anew: read it with the old name
  const asOld = new RegExp(`\\b${newName}\\b`, "g");
  const diff = renderDifference(doc, after, dialects, options.scenarios ?? BUILTIN_SCENARIOS, (e) => e.message.replace(asOld, old));
  if (diff) return { refused: `Renaming ${quote(old)} to ${quote(newName)} changes what ${changeOf(diff)}.` };
  return { edits };
}

function changeOf(d: RenderDifference): string {
  const engine = `${ENGINE_LABELS[d.dialect.engine]} renders for the scenario '${d.scenario.name}'`;
  const outcome = (r: RenderDifference["before"]) => (r.error ? `throws (${r.error.message})` : "renders");
  if (!d.before.error && !d.after.error) {
    let at = 0;
    while (d.before.output[at] === d.after.output[at]) at++;
    return `${engine}: its output differs from character ${at}`;
  }
  return `${engine}: it ${outcome(d.before)}, and after the rename ${outcome(d.after)}`;
}

function nameProblem(name: string): string | null {
  // ASCII only: Jinja2 takes any Python identifier, but llama.cpp's and minja's lexers take ASCII names
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return `${quote(name)} is not a Jinja identifier (a letter or _, then letters, digits or _).`;
  if (isKeyword(name)) return `${quote(name)} is a keyword.`;
  return null;
}

/** The names Jinja defines inside a loop, a macro or any template (`loop`, `caller`, `varargs`, `kwargs`, `self`). */
const JINJA_NAMES = new Set(["loop", "self", ...MACRO_VARIABLES_BY_NAME.keys()]);

function variableConflict(doc: TemplateDocument, symbol: SymbolAt, newName: string): string | null {
  if (CONTEXT_BY_NAME.has(newName))
    return `${quote(newName)} is a context variable: the renamed ${quote(symbol.name)} would shadow what the caller passes.`;
  if (GLOBALS_BY_NAME.has(newName)) return `${quote(newName)} is a builtin global: the renamed ${quote(symbol.name)} would shadow it.`;
  if (JINJA_NAMES.has(newName))
    return `${quote(newName)} is a name Jinja itself defines: the renamed ${quote(symbol.name)} would shadow it.`;
  const info = scopesOf(doc.template);
  const line = (offset: number) => doc.lines.lineOf(offset) + 1;
  const scopes = new Set(symbol.bindings.map((b) => scopeOf(info, b)));
  const inScope = scopesTest(info, symbol);
  const twin = info.bindings.find((b) => b.name === newName && scopes.has(scopeOf(info, b)));
  if (twin) return `${quote(newName)} is already defined in the same scope, at line ${line(twin.nameSpan.start)}.`;
  // captured: another local of that name is visible where the symbol is (a keyword argument at a call is no lookup)
  for (const r of referencesOf(doc, symbol)) {
    const other = inScope(r.start) ? resolveUse(info, newName, r.start) : null;
    if (other)
      return `${quote(newName)} is already the ${other.kind.replace("-", " ")} defined at line ${line(other.nameSpan.start)}, visible where ${quote(symbol.name)} is at line ${line(r.start)}.`;
  }
  // capturing: a use of that name inside the renamed symbol's scope would find the symbol instead (and one of its
  // bindings there would hide it)
  let used: number | null = null;
  walk(doc.template, (n) => {
    if (used === null && n.kind === "Name" && n.name === newName && inScope(n.start)) used = n.start;
  });
  if (used !== null)
    return `${quote(newName)} already appears at line ${line(used)}, in the scope of ${quote(symbol.name)}: the two names would be confused.`;
  return null;
}

function attributeConflict(doc: TemplateDocument, symbol: SymbolAt, newName: string): string | null {
  const info = scopesOf(doc.template);
  const assigned = info.attributes.find((a) => a.object === symbol.name && a.attr === newName);
  let read: Span | null = assigned ? assigned.attrSpan : null;
  walk(doc.template, (n) => {
    if (!read && n.kind === "GetAttr" && n.attr === newName && n.object.kind === "Name" && n.object.name === symbol.name) read = n.attrSpan;
  });
  return read
    ? `${quote(symbol.name)} already has an attribute ${quote(newName)} (line ${doc.lines.lineOf((read as Span).start) + 1}).`
    : null;
}
