// The names a template binds itself (set, for, with, macro and its parameters, call-block parameters):
// where a global of the same name is shadowed, so neither an engine's missing global nor a Python builtin
// is what the template means by it.
import type { TemplateDocument } from "../document";
import type * as A from "../parser";
import { walk } from "../parser";

export function boundNames(doc: TemplateDocument): Set<string> {
  const names = new Set<string>();
  const bind = (e: A.Expr): void => {
    if (e.kind === "Name") names.add(e.name);
    else if (e.kind === "Tuple") e.items.forEach(bind);
  };
  walk(doc.template, (n) => {
    if (n.kind === "Set" || n.kind === "SetBlock" || n.kind === "For") bind(n.target);
    else if (n.kind === "With") n.assignments.forEach((a) => bind(a.target));
    if (n.kind === "Macro") names.add(n.name);
    if (n.kind === "Macro" || n.kind === "CallBlock") for (const p of n.params) names.add(p.name);
  });
  return names;
}
