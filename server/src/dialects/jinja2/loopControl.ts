// Jinja2 compiles `{% break %}` and `{% continue %}` to Python's own statements, so one that is not
// in a for loop's body within the same compiled function makes compile() fail before anything
// renders: macros, call blocks and blocks are functions of their own, and a for's else runs after
// the loop. Set, filter and with blocks are compiled inline, so their bodies are inside the loop.
import type { Refusal } from "../../interpreter/kit";
import type * as A from "../../parser";

const FUNCTIONS: ReadonlySet<A.Node["kind"]> = new Set(["Macro", "CallBlock", "BlockStmt"]);

export function loopControlRefusal(node: A.Node, ancestors: readonly A.Node[]): Refusal | null {
  if (node.kind !== "Break" && node.kind !== "Continue") return null;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const a = ancestors[i];
    if (FUNCTIONS.has(a.kind)) break;
    if (a.kind === "For" && a.body.includes((ancestors[i + 1] ?? node) as A.Stmt)) return null;
  }
  // Python's own words (compile.c).
  const message = node.kind === "Break" ? "SyntaxError: 'break' outside loop" : "SyntaxError: 'continue' not properly in loop";
  return { when: "parse", code: "syntax/loop-control", message };
}
