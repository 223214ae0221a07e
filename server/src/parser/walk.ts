// The one traversal of the AST: a node's children in source order, and walks built on it, so the
// interpreter, the analysis, the dialects and the editor services each state only what they look for.
import type * as A from "./ast";

type Child = A.Expr | A.Stmt;

function exprs(list: (A.Expr | null)[], fn: (c: Child) => void): void {
  for (const e of list) if (e) fn(e);
}

function callArgs(n: A.CallArgs, fn: (c: Child) => void): void {
  exprs(n.args, fn);
  for (const k of n.kwargs) fn(k.value);
  exprs([n.starArgs, n.starKwargs], fn);
}

const stmts = (list: A.Stmt[] | null, fn: (c: Child) => void) => list?.forEach(fn);

/** Calls `fn` on each direct child node of `node`, in source order. */
export function forEachChild(node: A.Node, fn: (child: Child) => void): void {
  switch (node.kind) {
    case "Template":
      return stmts(node.body, fn);
    case "Output":
      return fn(node.expr);
    case "If":
      for (const b of node.branches) {
        fn(b.test);
        stmts(b.body, fn);
      }
      return stmts(node.orElse, fn);
    case "For":
      exprs([node.target, node.iter, node.filter], fn);
      stmts(node.body, fn);
      return stmts(node.orElse, fn);
    case "Set":
      return exprs([node.target, node.value], fn);
    case "SetBlock":
      exprs([node.target, node.filter], fn);
      return stmts(node.body, fn);
    case "Macro":
      exprs(
        node.params.map((p) => p.default),
        fn,
      );
      return stmts(node.body, fn);
    case "CallBlock":
      exprs(
        node.params.map((p) => p.default),
        fn,
      );
      fn(node.call);
      return stmts(node.body, fn);
    case "FilterBlock":
      fn(node.filter);
      return stmts(node.body, fn);
    case "Raw":
      return fn(node.text);
    case "Generation":
    case "BlockStmt":
      return stmts(node.body, fn);
    case "With":
      for (const a of node.assignments) exprs([a.target, a.value], fn);
      return stmts(node.body, fn);
    case "Autoescape":
      fn(node.value);
      return stmts(node.body, fn);
    case "Include":
    case "Import":
    case "FromImport":
    case "Extends":
      return fn(node.template);
    case "GetAttr":
      return fn(node.object);
    case "GetItem":
      return exprs([node.object, node.index], fn);
    case "Slice":
      return exprs([node.startExpr, node.stopExpr, node.stepExpr], fn);
    case "Call":
      fn(node.callee);
      return callArgs(node, fn);
    case "Filter":
      exprs([node.expr], fn);
      return callArgs(node, fn);
    case "Test":
      fn(node.expr);
      return callArgs(node, fn);
    case "Unary":
      return fn(node.operand);
    case "Binary":
      return exprs([node.left, node.right], fn);
    case "Compare":
      fn(node.left);
      for (const o of node.ops) fn(o.right);
      return;
    case "Conditional":
      // Source order: `then if test else orElse`.
      return exprs([node.then, node.test, node.orElse], fn);
    case "List":
    case "Tuple":
      return exprs(node.items, fn);
    case "Dict":
      for (const p of node.pairs) exprs([p.key, p.value], fn);
      return;
    default:
      // Leaves: Const, Str, Int, Float, Name, ErrorExpr, Text, Break, Continue, ErrorStmt.
      return;
  }
}

/** The direct children of `node`, in source order. */
export function children(node: A.Node): A.Node[] {
  const out: A.Node[] = [];
  forEachChild(node, (c) => out.push(c));
  return out;
}

/** Visits `root` and every node below it, parents before children, with its ancestors (outermost first, the parent last). */
export function walk(root: A.Node, visit: (n: A.Node, ancestors: readonly A.Node[]) => void): void {
  const stack: A.Node[] = [];
  const go = (n: A.Node): void => {
    visit(n, stack);
    stack.push(n);
    forEachChild(n, go);
    stack.pop();
  };
  go(root);
}

/** The nodes that contain `offset`, outermost first (`end` is inclusive, so a cursor right after a name is on it). */
export function nodesAt(root: A.Node, offset: number): A.Node[] {
  const path: A.Node[] = [];
  let cur: A.Node | null = root;
  while (cur) {
    path.push(cur);
    let next: A.Node | null = null;
    forEachChild(cur, (c) => {
      if (!next && c.start <= offset && offset <= c.end && c.end > c.start) next = c;
    });
    cur = next;
  }
  return path;
}

/** Whether `inner` lies inside `outer`. */
export function within(inner: A.Span, outer: A.Span): boolean {
  return inner.start >= outer.start && inner.end <= outer.end;
}
