// Whether Jinja2's compiler folds an expression to a constant (nodes.Expr.as_const succeeds): a
// literal, or operators over literals. Names, calls, filters and tests are never folded here.
import type * as A from "../parser";

export function isConstant(e: A.Expr): boolean {
  switch (e.kind) {
    case "Const":
    case "Str":
    case "Int":
    case "Float":
      return true;
    case "List":
    case "Tuple":
      return e.items.every(isConstant);
    case "Dict":
      return e.pairs.every((p) => isConstant(p.key) && isConstant(p.value));
    case "Unary":
      return isConstant(e.operand);
    case "Binary":
      return isConstant(e.left) && isConstant(e.right);
    case "Compare":
      return isConstant(e.left) && e.ops.every((o) => isConstant(o.right));
    case "Conditional":
      return isConstant(e.test) && isConstant(e.then) && (e.orElse === null || isConstant(e.orElse));
    default:
      return false;
  }
}
