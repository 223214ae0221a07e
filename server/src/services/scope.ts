// Which names a template defines, where, and what is visible at an offset: the shared ground of
// hover, completion, definition, symbols and semantic tokens. It follows Jinja2's scoping: `for`,
// `macro`, `call` and `with` bodies are scopes; `if` and block `set` are not; a `set` is visible
// after its tag, a loop variable from the loop's `if` filter on.
import type * as A from "../parser";
import type { Span } from "../document";
import { forEachChild } from "../parser";

export type BindingKind = "macro" | "variable" | "namespace" | "loop-variable" | "parameter";

export interface Binding {
  name: string;
  kind: BindingKind;
  nameSpan: Span;
  /** The defining statement. */
  node: A.Set | A.SetBlock | A.Macro | A.For | A.CallBlock | A.With;
  /** Uses at or after this offset (within the scope) see the binding. */
  visibleFrom: number;
  /** What was assigned (`set`, `with`), or what the loop iterates (the loop variable is one item of it). */
  value: A.Expr | null;
  /** Set when a tuple target unpacks the value: the binding is item `unpacked` of each value. */
  unpacked: number | null;
}

/** `{% set ns.attr = … %}`, and the keyword arguments of `namespace(attr=…)`. */
export interface AttributeAssignment {
  object: string;
  attr: string;
  attrSpan: Span;
  node: A.Set | A.SetBlock;
}

export interface Scope extends Span {
  parent: Scope | null;
  children: Scope[];
  bindings: Binding[];
  /** The statement whose body this is; null for the template. */
  owner: A.For | A.Macro | A.CallBlock | A.With | null;
}

export interface ScopeInfo {
  root: Scope;
  bindings: Binding[];
  attributes: AttributeAssignment[];
}

function newScope(owner: A.For | A.Macro | A.CallBlock | A.With | null, span: Span, parent: Scope | null): Scope {
  const s: Scope = { start: span.start, end: span.end, parent, children: [], bindings: [], owner };
  parent?.children.push(s);
  return s;
}

/** Where a block's body ends: before its `else`/end tag, or at its end when unclosed. */
function bodyEnd(n: A.For | A.Macro | A.CallBlock | A.With): number {
  return (n.kind === "For" ? n.elseTag?.start : undefined) ?? n.endTag?.start ?? n.end;
}

const cache = new WeakMap<A.Template, ScopeInfo>();

/** The scopes of a parsed template, computed once per parse (every feature request asks again). */
export function scopesOf(template: A.Template): ScopeInfo {
  let info = cache.get(template);
  if (!info) cache.set(template, (info = analyzeScopes(template)));
  return info;
}

function analyzeScopes(template: A.Template): ScopeInfo {
  const root = newScope(null, template, null);
  const bindings: Binding[] = [];
  const attributes: AttributeAssignment[] = [];

  const bind = (scope: Scope, b: Omit<Binding, "unpacked"> & { unpacked?: number | null }) => {
    const full: Binding = { ...b, unpacked: b.unpacked ?? null };
    scope.bindings.push(full);
    bindings.push(full);
  };
  const bindTarget = (scope: Scope, target: A.Expr, b: Pick<Binding, "kind" | "node" | "visibleFrom" | "value">) => {
    if (target.kind === "Name") bind(scope, { ...b, name: target.name, nameSpan: target });
    else if (target.kind === "Tuple") {
      target.items.forEach((item, i) => {
        if (item.kind === "Name") bind(scope, { ...b, name: item.name, nameSpan: item, unpacked: i });
      });
    }
  };

  const visit = (node: A.Node, scope: Scope): void => {
    switch (node.kind) {
      case "Set":
      case "SetBlock": {
        const t = node.target;
        if (t.kind === "GetAttr" && t.object.kind === "Name") {
          attributes.push({ object: t.object.name, attr: t.attr, attrSpan: t.attrSpan, node });
        } else {
          const value = node.kind === "Set" ? node.value : null;
          const isNamespace = value?.kind === "Call" && value.callee.kind === "Name" && value.callee.name === "namespace";
          bindTarget(scope, t, { kind: isNamespace ? "namespace" : "variable", node, visibleFrom: node.end, value });
          if (isNamespace && t.kind === "Name") {
            for (const k of (value as A.Call).kwargs) attributes.push({ object: t.name, attr: k.name, attrSpan: k.nameSpan, node });
          }
        }
        break;
      }
      case "Macro": {
        if (node.name) bind(scope, { name: node.name, kind: "macro", nameSpan: node.nameSpan, node, visibleFrom: node.start, value: null });
        const inner = newScope(node, { start: node.openTag.start, end: bodyEnd(node) }, scope);
        for (const p of node.params) {
          bind(inner, {
            name: p.name,
            kind: "parameter",
            nameSpan: { start: p.start, end: p.start + p.name.length },
            node,
            visibleFrom: node.openTag.end,
            value: null,
          });
        }
        forEachChild(node, (c) => visit(c, inner));
        return;
      }
      case "CallBlock": {
        const inner = newScope(node, { start: node.openTag.start, end: bodyEnd(node) }, scope);
        for (const p of node.params) {
          bind(inner, {
            name: p.name,
            kind: "parameter",
            nameSpan: { start: p.start, end: p.start + p.name.length },
            node,
            visibleFrom: node.openTag.end,
            value: null,
          });
        }
        forEachChild(node, (c) => visit(c, inner));
        return;
      }
      case "For": {
        const inner = newScope(node, { start: node.openTag.start, end: bodyEnd(node) }, scope);
        bindTarget(inner, node.target, { kind: "loop-variable", node, visibleFrom: node.iter.end, value: node.iter });
        node.body.forEach((s) => visit(s, inner));
        node.orElse?.forEach((s) => visit(s, scope));
        return;
      }
      case "With": {
        const inner = newScope(node, { start: node.openTag.start, end: bodyEnd(node) }, scope);
        for (const a of node.assignments)
          bindTarget(inner, a.target, { kind: "variable", node, visibleFrom: node.openTag.end, value: a.value });
        forEachChild(node, (c) => visit(c, inner));
        return;
      }
    }
    forEachChild(node, (c) => visit(c, scope));
  };
  visit(template, root);
  return { root, bindings, attributes };
}

/** The scope a binding belongs to. */
export function scopeOf(info: ScopeInfo, b: Binding): Scope {
  const find = (s: Scope): Scope | null => (s.bindings.includes(b) ? s : s.children.reduce<Scope | null>((f, c) => f ?? find(c), null));
  return find(info.root) ?? info.root;
}

/** The innermost scope containing `offset`. */
export function scopeAt(info: ScopeInfo, offset: number): Scope {
  let scope = info.root;
  for (;;) {
    const inner = scope.children.find((c) => c.start <= offset && offset <= c.end);
    if (!inner) return scope;
    scope = inner;
  }
}

/** The binding a use of `name` at `offset` refers to, following Jinja2's scoping; null for a free name. */
export function resolveName(info: ScopeInfo, name: string, offset: number): Binding | null {
  for (let s: Scope | null = scopeAt(info, offset); s; s = s.parent) {
    let found: Binding | null = null;
    for (const b of s.bindings) if (b.name === name && b.visibleFrom <= offset) found = b;
    if (found) return found;
  }
  return null;
}

/** Every binding visible at `offset`, innermost first, one per name. */
export function visibleBindings(info: ScopeInfo, offset: number): Binding[] {
  const seen = new Map<string, Binding>();
  for (let s: Scope | null = scopeAt(info, offset); s; s = s.parent) {
    for (let i = s.bindings.length - 1; i >= 0; i--) {
      const b = s.bindings[i];
      if (b.visibleFrom <= offset && !seen.has(b.name)) seen.set(b.name, b);
    }
  }
  return [...seen.values()];
}

/** The innermost statement of `kind` whose body (not its header) contains `offset`. */
export function enclosing<K extends NonNullable<Scope["owner"]>["kind"]>(
  info: ScopeInfo,
  offset: number,
  kind: K,
): Extract<Scope["owner"], { kind: K }> | null {
  for (let s: Scope | null = scopeAt(info, offset); s; s = s.parent) {
    const o = s.owner;
    if (o && o.kind === kind && offset >= o.openTag.end) return o as Extract<Scope["owner"], { kind: K }>;
  }
  return null;
}
