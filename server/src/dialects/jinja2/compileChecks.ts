// Templates Jinja2's code generator refuses (compiler.py fails with TemplateAssertionError before
// anything renders): a for loop that assigns the special `loop` name (as its target or inside), and a macro or call block whose
// body uses `caller` while declaring it as a parameter without a default.
import { macroUses, type Refusal } from "../../interpreter/kit";
import type * as A from "../../parser";
import { walk } from "../../parser";

function assigns(target: A.Expr, name: string): boolean {
  return target.kind === "Name" ? target.name === name : target.kind === "Tuple" && target.items.some((t) => assigns(t, name));
}

/** visit_For looks for a stored `loop` anywhere in the for node: its target, and any set, for or with inside it. */
function storesLoop(node: A.For): boolean {
  let found = false;
  walk(node, (n) => {
    if (found) return;
    if (n.kind === "For" || n.kind === "Set" || n.kind === "SetBlock") found = assigns(n.target, "loop");
    else if (n.kind === "With") found = n.assignments.some((a) => assigns(a.target, "loop"));
  });
  return found;
}

function assertion(code: `syntax/${string}`, message: string): Refusal {
  return { when: "parse", code, message: `TemplateAssertionError: ${message}` };
}

export function compileRefusal(node: A.Node): Refusal | null {
  if (node.kind === "For" && storesLoop(node))
    return assertion("syntax/loop-target", "Can't assign to special loop variable in for-loop target");
  if (
    (node.kind === "Macro" || node.kind === "CallBlock") &&
    node.params.some((p) => p.name === "caller" && !p.default) &&
    macroUses(node).caller
  )
    return assertion(
      "syntax/caller-parameter",
      'When defining macros or call blocks the special "caller" argument must be omitted or be given a default.',
    );
  return null;
}
