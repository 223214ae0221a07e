// The outline: macros, `set` variables (namespaces with their attributes), blocks, and `for` loops
// with their loop variables as children. Other statements (`if`, `with`, `call`, …) are transparent:
// what they contain shows up under the enclosing symbol.
import type { DocumentSymbol, Span, TemplateDocument } from "../document";
import type * as A from "../parser";
import { forEachChild } from "../parser";

const span = (s: Span): Span => ({ start: s.start, end: s.end });

export function findDocumentSymbols(doc: TemplateDocument): DocumentSymbol[] {
  return childSymbols(doc, doc.template);
}

function childSymbols(doc: TemplateDocument, node: A.Node): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  forEachChild(node, (c) => out.push(...symbolsOf(doc, c)));
  return out;
}

function symbolsOf(doc: TemplateDocument, n: A.Expr | A.Stmt): DocumentSymbol[] {
  switch (n.kind) {
    case "Macro":
      if (!n.name) return childSymbols(doc, n);
      return [
        {
          name: n.name,
          kind: "macro",
          detail: `(${n.params.map((p) => p.name).join(", ")})`,
          span: span(n),
          selectionSpan: span(n.nameSpan),
          children: childSymbols(doc, n),
        },
      ];
    case "Set":
    case "SetBlock":
      return [...targetSymbols(n), ...(n.kind === "SetBlock" ? childSymbols(doc, n) : [])];
    case "For": {
      const vars = names(n.target).map((v) => leaf(v.name, "variable", v, v));
      const header = `for ${squash(doc.text.slice(n.target.start, n.target.end))} in ${squash(doc.text.slice(n.iter.start, n.iter.end))}`;
      return [{ name: header, kind: "loop", span: span(n), selectionSpan: span(n.openTag), children: [...vars, ...childSymbols(doc, n)] }];
    }
    case "BlockStmt":
      return [{ name: n.name, kind: "block", span: span(n), selectionSpan: span(n.nameSpan), children: childSymbols(doc, n) }];
    default:
      // Expressions define nothing; other statements are transparent.
      return "body" in n || n.kind === "If" ? childSymbols(doc, n) : [];
  }
}

function targetSymbols(n: A.Set | A.SetBlock): DocumentSymbol[] {
  if (n.target.kind === "GetAttr") return [];
  const value = n.kind === "Set" ? n.value : null;
  if (n.target.kind === "Name" && value?.kind === "Call" && value.callee.kind === "Name" && value.callee.name === "namespace") {
    const attrs = value.kwargs.map((k) => leaf(k.name, "attribute", k, k.nameSpan));
    return [{ name: n.target.name, kind: "namespace", span: span(n), selectionSpan: span(n.target), children: attrs }];
  }
  return names(n.target).map((v) => leaf(v.name, "variable", n, v));
}

function names(target: A.Expr): A.Name[] {
  if (target.kind === "Name") return [target];
  if (target.kind === "Tuple") return target.items.flatMap(names);
  return [];
}

function leaf(name: string, kind: DocumentSymbol["kind"], whole: Span, sel: Span): DocumentSymbol {
  return { name, kind, span: span(whole), selectionSpan: span(sel), children: [] };
}

/** Loop headers are shown on one line, shortened. */
function squash(s: string): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > 40 ? one.slice(0, 39) + "…" : one;
}
