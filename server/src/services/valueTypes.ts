// What the editor knows about the value of an expression: enough to complete `message.` inside
// `{% for message in messages %}`, `loop.`, or `tool_call.function.` after
// `{% set tool_call = tool_call.function %}`-style unwrapping. Unknown is null, never a guess.
import { CONTEXT_BY_NAME, type FieldFact, fieldsOf, itemOf, LOOP_VARIABLE, scalar, type ValueType } from "../languageFacts";
import type * as A from "../parser";
import { enclosing, resolveName, type Binding, type ScopeInfo } from "./scope";

/** Filters whose result has the type of their input (or of one of its items). */
const SAME_TYPE_FILTERS = new Set(["list", "reverse", "sort", "unique", "select", "reject", "selectattr", "rejectattr", "default", "d"]);
const ITEM_FILTERS = new Set(["first", "last", "random", "min", "max"]);

/**
 * The type of `expr`, with names resolved as seen at `at` (the expression's own position, or the
 * cursor for an expression typed but not yet parsed in place). Recursion always moves to earlier
 * source positions (a binding's value precedes its uses), so it terminates.
 */
export function typeOf(info: ScopeInfo, expr: A.Expr, at: number = expr.start): ValueType | null {
  switch (expr.kind) {
    case "Name": {
      const b = resolveName(info, expr.name, at);
      if (b) return bindingType(info, b);
      if (expr.name === "loop") return enclosing(info, at, "For") ? LOOP_VARIABLE.type : null;
      return CONTEXT_BY_NAME.get(expr.name)?.type ?? null;
    }
    case "GetAttr": {
      const object = typeOf(info, expr.object, at);
      if (expr.numeric) return itemOf(object);
      return fieldsOf(object).find((f) => f.name === expr.attr)?.type ?? null;
    }
    case "GetItem": {
      const object = typeOf(info, expr.object, at);
      if (expr.index.kind === "Slice") return object;
      if (expr.index.kind === "Str") {
        const key = expr.index.value;
        return fieldsOf(object).find((f) => f.name === key)?.type ?? null;
      }
      return itemOf(object);
    }
    case "Filter": {
      if (!expr.expr) return null;
      if (SAME_TYPE_FILTERS.has(expr.name)) return typeOf(info, expr.expr, at);
      if (ITEM_FILTERS.has(expr.name)) return itemOf(typeOf(info, expr.expr, at));
      return null;
    }
    case "Conditional":
      return typeOf(info, expr.then, at) ?? (expr.orElse ? typeOf(info, expr.orElse, at) : null);
    case "Binary":
      return expr.op === "or" ? (typeOf(info, expr.left, at) ?? typeOf(info, expr.right, at)) : null;
    default:
      return null;
  }
}

export function bindingType(info: ScopeInfo, b: Binding): ValueType | null {
  if (b.kind === "namespace") return namespaceType(info, b);
  if (!b.value) return null;
  if (b.kind === "loop-variable") return b.unpacked === null ? itemOf(typeOf(info, b.value)) : null;
  if (b.kind === "variable" && b.unpacked === null) return typeOf(info, b.value);
  return null;
}

/** A namespace's attributes: its `namespace(…)` arguments and every `set name.attr` of that name. */
function namespaceType(info: ScopeInfo, b: Binding): ValueType {
  const fields = new Map<string, FieldFact>();
  for (const a of info.attributes) {
    if (a.object === b.name && !fields.has(a.attr))
      fields.set(a.attr, { name: a.attr, type: scalar("any"), doc: "An attribute of this namespace." });
  }
  return { kind: "object", shape: { name: "namespace", dict: false, fields: [...fields.values()] } };
}
