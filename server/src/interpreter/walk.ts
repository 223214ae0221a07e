// Generic traversal of the AST: the child nodes of any node, in source order.
import type * as A from "../parser/ast";

function callArgs(n: A.CallArgs, out: A.Node[]): void {
  out.push(...n.args, ...n.kwargs.map((k) => k.value));
  if (n.starArgs) out.push(n.starArgs);
  if (n.starKwargs) out.push(n.starKwargs);
}

function params(ps: A.Param[], out: A.Node[]): void {
  for (const p of ps) if (p.default) out.push(p.default);
}

export function children(n: A.Node): A.Node[] {
  const out: A.Node[] = [];
  switch (n.kind) {
    case "GetAttr":
      out.push(n.object);
      break;
    case "GetItem":
      out.push(n.object, n.index);
      break;
    case "Slice":
      for (const e of [n.startExpr, n.stopExpr, n.stepExpr]) if (e) out.push(e);
      break;
    case "Call":
      out.push(n.callee);
      callArgs(n, out);
      break;
    case "Filter":
      if (n.expr) out.push(n.expr);
      callArgs(n, out);
      break;
    case "Test":
      out.push(n.expr);
      callArgs(n, out);
      break;
    case "Unary":
      out.push(n.operand);
      break;
    case "Binary":
      out.push(n.left, n.right);
      break;
    case "Compare":
      out.push(n.left, ...n.ops.map((o) => o.right));
      break;
    case "Conditional":
      out.push(n.then, n.test);
      if (n.orElse) out.push(n.orElse);
      break;
    case "List":
    case "Tuple":
      out.push(...n.items);
      break;
    case "Dict":
      for (const p of n.pairs) out.push(p.key, p.value);
      break;
    case "Output":
      out.push(n.expr);
      break;
    case "If":
      for (const b of n.branches) out.push(b.test, ...b.body);
      if (n.orElse) out.push(...n.orElse);
      break;
    case "For":
      out.push(n.target, n.iter);
      if (n.filter) out.push(n.filter);
      out.push(...n.body);
      if (n.orElse) out.push(...n.orElse);
      break;
    case "Set":
      out.push(n.target, n.value);
      break;
    case "SetBlock":
      out.push(n.target);
      if (n.filter) out.push(n.filter);
      out.push(...n.body);
      break;
    case "Macro":
      params(n.params, out);
      out.push(...n.body);
      break;
    case "CallBlock":
      params(n.params, out);
      out.push(n.call, ...n.body);
      break;
    case "FilterBlock":
      out.push(n.filter, ...n.body);
      break;
    case "Raw":
      out.push(n.text);
      break;
    case "With":
      for (const a of n.assignments) out.push(a.target, a.value);
      out.push(...n.body);
      break;
    case "Include":
    case "Import":
    case "FromImport":
    case "Extends":
      out.push(n.template);
      break;
    case "Generation":
    case "BlockStmt":
    case "Template":
      out.push(...n.body);
      break;
  }
  return out;
}

/** Visits every node below `root` with its ancestors (outermost first, the parent last). */
export function walk(root: A.Node, visit: (n: A.Node, ancestors: readonly A.Node[]) => void): void {
  const stack: A.Node[] = [];
  const go = (n: A.Node): void => {
    visit(n, stack);
    stack.push(n);
    for (const c of children(n)) go(c);
    stack.pop();
  };
  go(root);
}

export function within(inner: A.Span, outer: A.Span): boolean {
  return inner.start >= outer.start && inner.end <= outer.end;
}
