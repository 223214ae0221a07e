// References and document highlights: every place a symbol of the template is defined or used — a macro, a
// macro parameter (with the keyword arguments that name it at calls: `m(x=1)`), a `set` variable, a loop
// variable, or a namespace attribute (`ns.x`). Rename renames exactly these places. A variable is all
// the bindings of its name in one Jinja2 scope (a `set` again in the same scope assigns the same variable; one
// inside a `for` or a macro is another), and a use belongs to it when the scope analysis resolves it there.
import type { Span, TemplateDocument } from "../document";
import { nodesAt, walk, type Call } from "../parser";
import { bindingDefinedAt } from "./names";
import { resolveName, scopeOf, scopesOf, type Binding, type ScopeInfo } from "./scope";

export interface Reference extends Span {
  /** A definition or assignment (`write`), or a use (`read`). */
  kind: "read" | "write";
}

/** The symbol under the cursor: a variable (its bindings), or an attribute of a namespace variable. */
export type SymbolAt = { bindings: Binding[]; attr: string | null; name: string };

function variableOf(info: ScopeInfo, b: Binding): Binding[] {
  return scopeOf(info, b).bindings.filter((x) => x.name === b.name);
}

/** What a name used at `at` refers to; a macro called above its definition still finds it. */
export function resolveUse(info: ScopeInfo, name: string, at: number): Binding | null {
  return resolveName(info, name, at) ?? info.bindings.find((b) => b.name === name && b.kind === "macro") ?? null;
}

/** The parameter of the macro `call` calls that its keyword argument `name` names. */
function parameterNamedAt(info: ScopeInfo, call: Call, name: string): Binding | null {
  const macro = call.callee.kind === "Name" ? resolveUse(info, call.callee.name, call.start) : null;
  if (macro?.kind !== "macro") return null;
  return info.bindings.find((b) => b.kind === "parameter" && b.node === macro.node && b.name === name) ?? null;
}

export function symbolAt(doc: TemplateDocument, offset: number): SymbolAt | null {
  const info = scopesOf(doc.template);
  const path = nodesAt(doc.template, offset);
  const n = path[path.length - 1];
  const of = (b: Binding | null, attr: string | null = null): SymbolAt | null =>
    b ? { bindings: variableOf(info, b), attr, name: b.name } : null;
  if (n.kind === "Name") return of(bindingDefinedAt(info, n) ?? resolveUse(info, n.name, n.start));
  if (n.kind === "Call") {
    const kw = n.kwargs.find((k) => k.nameSpan.start <= offset && offset <= k.nameSpan.end);
    const param = kw && parameterNamedAt(info, n, kw.name);
    if (param) return of(param);
  }
  if (n.kind === "GetAttr" && n.object.kind === "Name" && n.attrSpan.start <= offset) {
    const ns = resolveUse(info, n.object.name, n.start);
    return ns?.kind === "namespace" ? of(ns, n.attr) : null;
  }
  const defined = info.bindings.find((b) => b.node === n && b.nameSpan.start <= offset && offset <= b.nameSpan.end);
  if (defined) return of(defined);
  // `namespace(found=…)`: the keyword declares the attribute
  const declared = info.attributes.find((a) => a.attrSpan.start <= offset && offset <= a.attrSpan.end);
  if (declared && declared.node.kind === "Set" && declared.node.target.kind === "Name") {
    return of(bindingDefinedAt(info, declared.node.target), declared.attr);
  }
  return null;
}

/** Every definition and use of the symbol at `offset`, in text order; null when the cursor is on none. */
export function findReferences(doc: TemplateDocument, offset: number): Reference[] | null {
  const symbol = symbolAt(doc, offset);
  return symbol && referencesOf(doc, symbol);
}

export function referencesOf(doc: TemplateDocument, symbol: SymbolAt): Reference[] {
  const info = scopesOf(doc.template);
  const inSymbol = (b: Binding | null) => !!b && symbol.bindings.includes(b);
  const found = new Map<number, Reference>();
  const add = (s: Span, kind: Reference["kind"]) => {
    if (!found.has(s.start) || kind === "write") found.set(s.start, { start: s.start, end: s.end, kind });
  };
  if (symbol.attr === null) {
    for (const b of symbol.bindings) add(b.nameSpan, "write");
    walk(doc.template, (n) => {
      if (n.kind === "Name" && n.name === symbol.name && !bindingDefinedAt(info, n) && inSymbol(resolveUse(info, n.name, n.start)))
        add(n, "read");
      // `m(x=1)` names the parameter x of the macro m
      if (n.kind === "Call")
        for (const k of n.kwargs) if (k.name === symbol.name && inSymbol(parameterNamedAt(info, n, k.name))) add(k.nameSpan, "read");
    });
  } else {
    for (const a of info.attributes) {
      if (a.attr !== symbol.attr || a.object !== symbol.name) continue;
      const owner = symbol.bindings.some((b) => b.node === a.node) || inSymbol(resolveUse(info, a.object, a.node.start));
      if (owner) add(a.attrSpan, "write");
    }
    walk(doc.template, (n) => {
      if (n.kind === "GetAttr" && n.attr === symbol.attr && n.object.kind === "Name" && n.object.name === symbol.name) {
        if (inSymbol(resolveUse(info, n.object.name, n.start))) add(n.attrSpan, "read");
      }
    });
  }
  return [...found.values()].sort((a, b) => a.start - b.start);
}
