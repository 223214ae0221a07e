// How deep a template may nest. Everything that reads the tree (the interpreter, the editor features,
// the checks) recurses over it, and so does the parser over brackets and blocks: unbounded nesting
// would overflow their stacks (10,000 nested `{% if %}` did, and killed the language server). Jinja2
// itself fails far earlier (Python's recursion limit: about 90 nested brackets, 100 blocks), so the
// limits below refuse no template Jinja2 renders.
import type * as A from "./ast";
import { children } from "./walk";

/** Blocks inside blocks, and brackets, unary operators, `not`s and `if`-expressions inside each other. */
export const MAX_NESTING = 200;

/** Depth of the tree, which chains (`a.b.c…`, `x|f|g…`, `1 + 2 + …`) grow without nesting brackets. */
export const MAX_DEPTH = 1000;

export const nestingMessage = (what: string) => `${what} nest deeper than ${MAX_NESTING} levels; no engine is asked to parse this`;

/**
 * Where the nesting that crossed the limit at token `from` goes deepest, for a parser to report it there: the
 * index of the first opening token at the greatest depth, scanning tokens up to `end` until the nesting closes
 * back to where it started; null if none opens. Each parser says what opens and closes in its own tokens.
 */
export function deepestOpening(from: number, end: number, opens: (i: number) => boolean, closes: (i: number) => boolean): number | null {
  let depth = 0;
  let best: { depth: number; at: number } | null = null;
  for (let i = from; i < end; i++) {
    if (opens(i)) {
      if (++depth > (best?.depth ?? 0)) best = { depth, at: i };
    } else if (closes(i) && --depth < 0) break;
  }
  return best && best.at;
}

/**
 * Replaces each subtree deeper than MAX_DEPTH by an ErrorExpr, reporting it at the deepest node
 * under it. Iterative, since the tree it is given may be too deep to recurse over. Only expressions
 * get this deep (blocks stop at MAX_NESTING), so the replacement is always an expression.
 */
export function limitDepth(t: A.Template, report: (at: A.Span, message: string) => void, newId: () => number): void {
  const stack: { node: A.Node; depth: number; parent: A.Node | null }[] = [{ node: t, depth: 0, parent: null }];
  while (stack.length > 0) {
    const { node, depth, parent } = stack.pop()!;
    if (depth > MAX_DEPTH && parent) {
      report(deepest(node), `this expression nests deeper than ${MAX_DEPTH} levels; no engine is asked to parse it`);
      replaceChild(parent, node, { kind: "ErrorExpr", id: newId(), start: node.start, end: node.end });
      continue;
    }
    for (const c of children(node)) stack.push({ node: c, depth: depth + 1, parent: node });
  }
}

function deepest(root: A.Node): A.Span {
  let best = { node: root, depth: 0 };
  const stack = [best];
  while (stack.length > 0) {
    const cur = stack.pop()!;
    if (cur.depth > best.depth) best = cur;
    for (const c of children(cur.node)) stack.push({ node: c, depth: cur.depth + 1 });
  }
  return { start: best.node.start, end: best.node.end };
}

/** Puts `by` where `parent` holds `old`: a field, an item of a list, or a field of an item (kwargs, pairs, branches…). */
function replaceChild(parent: A.Node, old: A.Node, by: A.ErrorExpr): void {
  const swapIn = (holder: Record<string, unknown>): boolean => {
    for (const [k, v] of Object.entries(holder)) {
      if (v === old) {
        holder[k] = by;
        return true;
      }
      if (!Array.isArray(v)) continue;
      const i = v.indexOf(old);
      if (i >= 0) {
        v[i] = by;
        return true;
      }
      for (const item of v)
        if (item && typeof item === "object" && !("kind" in item) && swapIn(item as Record<string, unknown>)) return true;
    }
    return false;
  };
  swapIn(parent as unknown as Record<string, unknown>);
}
