// Literal expressions: parts of a template that mean the same wherever they are copied, so a
// sample template can reuse them as written.
import type * as A from "../parser";

export function isLiteral(e: A.Expr): boolean {
  switch (e.kind) {
    case "Const":
    case "Str":
    case "Int":
    case "Float":
      return true;
    case "List":
    case "Tuple":
      return e.items.every(isLiteral);
    case "Dict":
      return e.pairs.every((p) => isLiteral(p.key) && isLiteral(p.value));
    case "Unary":
      return e.op === "-" && (e.operand.kind === "Int" || e.operand.kind === "Float");
  }
  return false;
}

/** The source of a call's arguments (`'a', b=1`) when all are literal, "" when there are none, else null. */
export function literalArgs(n: A.CallArgs, source: string): string | null {
  if (n.starArgs || n.starKwargs) return null;
  const parts: A.Span[] = [...n.args, ...n.kwargs];
  if (parts.length === 0) return "";
  if (!n.args.every(isLiteral) || !n.kwargs.every((k) => isLiteral(k.value))) return null;
  return source.slice(Math.min(...parts.map((p) => p.start)), Math.max(...parts.map((p) => p.end)));
}
