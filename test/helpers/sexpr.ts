// Compact, readable renderings of AST nodes for assertions: `(+ 1 (* 2 3))`.
import type * as A from "../../server/src/parser/ast";

function callArgs(n: A.CallArgs): string {
  const parts = [...n.args.map(sexpr), ...n.kwargs.map((k) => `${k.name}=${sexpr(k.value)}`)];
  if (n.starArgs) parts.push(`*${sexpr(n.starArgs)}`);
  if (n.starKwargs) parts.push(`**${sexpr(n.starKwargs)}`);
  return parts.length ? " " + parts.join(" ") : "";
}

export function sexpr(e: A.Expr | null): string {
  if (e === null) return "_";
  switch (e.kind) {
    case "Const":
      return e.spelling;
    case "Str":
      return JSON.stringify(e.value);
    case "Int":
      return e.value.toString();
    case "Float":
      return `${e.value}f`;
    case "Name":
      return e.name;
    case "GetAttr":
      return `(. ${sexpr(e.object)} ${e.numeric ? "#" : ""}${e.attr})`;
    case "GetItem":
      return `([] ${sexpr(e.object)} ${sexpr(e.index)})`;
    case "Slice":
      return `(: ${sexpr(e.startExpr)} ${sexpr(e.stopExpr)} ${sexpr(e.stepExpr)})`;
    case "Call":
      return `(call ${sexpr(e.callee)}${callArgs(e)})`;
    case "Filter":
      return `(|${e.name} ${sexpr(e.expr)}${callArgs(e)})`;
    case "Test":
      return `(is${e.negated ? "-not" : ""} ${e.name} ${sexpr(e.expr)}${callArgs(e)})`;
    case "Unary":
      return `(${e.op} ${sexpr(e.operand)})`;
    case "Binary":
      return `(${e.op} ${sexpr(e.left)} ${sexpr(e.right)})`;
    case "Compare":
      return `(cmp ${sexpr(e.left)} ${e.ops.map((o) => `${o.op} ${sexpr(o.right)}`).join(" ")})`;
    case "Conditional":
      return `(if ${sexpr(e.test)} ${sexpr(e.then)} ${sexpr(e.orElse)})`;
    case "List":
      return `[${e.items.map(sexpr).join(" ")}]`;
    case "Tuple":
      return `(tuple${e.items.map((x) => " " + sexpr(x)).join("")})`;
    case "Dict":
      return `{${e.pairs.map((p) => `${sexpr(p.key)}: ${sexpr(p.value)}`).join(", ")}}`;
    case "ErrorExpr":
      return "<error>";
  }
}
