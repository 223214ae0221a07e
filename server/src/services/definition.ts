// Go to definition: from a use of a macro, a `set` variable, a loop variable or a macro parameter
// to where it is defined, and from `ns.attr` to the `namespace(attr=…)` that declares it.
import type { Definition, Span, TemplateDocument } from "../document";
import type * as A from "../parser";
import { bindingDefinedAt } from "./names";
import { resolveName, scopesOf, type Binding, type ScopeInfo } from "./scope";
import { nodesAt } from "../parser";

export function findDefinition(doc: TemplateDocument, offset: number): Definition | null {
  const info = scopesOf(doc.template);
  const path = nodesAt(doc.template, offset);
  const n = path[path.length - 1];
  if (n.kind === "Name") {
    const b = bindingDefinedAt(info, n) ?? resolveName(info, n.name, n.start) ?? firstBinding(info, n.name);
    return b ? toDefinition(n, b.node, b.nameSpan) : null;
  }
  if (n.kind === "GetAttr" && n.object.kind === "Name" && n.attrSpan.start <= offset) return attributeDefinition(info, n, n.object);
  if (n.kind === "Macro" || n.kind === "CallBlock") {
    const b = info.bindings.find((x) => x.node === n && x.nameSpan.start <= offset && offset <= x.nameSpan.end);
    return b ? toDefinition(b.nameSpan, b.node, b.nameSpan) : null;
  }
  return null;
}

/** A use before any visible definition (a macro called above where it is defined) still finds it. */
function firstBinding(info: ScopeInfo, name: string): Binding | null {
  return info.bindings.find((b) => b.name === name) ?? null;
}

function attributeDefinition(info: ScopeInfo, n: A.GetAttr, object: A.Name): Definition | null {
  const ns = resolveName(info, object.name, n.start);
  const candidates = info.attributes.filter((a) => a.object === object.name && a.attr === n.attr);
  // Prefer the declaration in the namespace(...) call the name refers to, then the first assignment.
  const a = candidates.find((c) => c.node === ns?.node) ?? candidates[0];
  return a ? toDefinition(n.attrSpan, a.node, a.attrSpan) : null;
}

function toDefinition(origin: Span, node: Span, name: Span): Definition {
  return {
    origin: { start: origin.start, end: origin.end },
    span: { start: node.start, end: node.end },
    selectionSpan: { start: name.start, end: name.end },
  };
}
