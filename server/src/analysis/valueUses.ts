// How a template consumes the value of an expression. Engines differ in how they turn a value into
// text (True, None, floats, lists), and that difference reaches the output only where the template
// converts the value to text; where it only tests, compares, indexes or measures the value, what
// matters is the value itself. The static rules sample a feature the way the template uses it, so
// `{% if loop.first %}` is judged on truth and `{{ loop.first }}` on printing.
import type * as A from "../parser";
import { isLiteral, literalArgs } from "./literals";

/**
 * `text`: converted to text there, as `sample` (a template expression over `expr`) converts it;
 * `truth`: only tested for truth; `value`: consumed as a value (compared, tested, indexed, measured,
 * computed with); `escapes`: bound to a name or passed on, so it may become text anywhere later.
 */
export type Use = { kind: "text"; sample: string } | { kind: "truth" | "value" | "escapes"; expr: string };

/** Filters that turn their input into text (Jinja2 applies str() or json.dumps to it). */
const TEXT_FILTERS: ReadonlySet<string> = new Set([
  "string",
  "tojson",
  "join",
  "format",
  "upper",
  "lower",
  "capitalize",
  "title",
  "trim",
  "replace",
  "center",
  "indent",
  "truncate",
  "wordwrap",
  "wordcount",
  "striptags",
  "urlencode",
  "escape",
  "e",
  "forceescape",
  "safe",
  "pprint",
  "urlize",
]);

/** Filters whose result is their input (when it is defined): the input goes where the result goes. */
const PASS_THROUGH_FILTERS: ReadonlySet<string> = new Set(["default", "d"]);

const src = (n: A.Span, source: string): string => source.slice(n.start, n.end);

/** `expr` as an operand: a name, member or item chain as it is, anything else in parentheses. */
export const operand = (expr: string): string => (/^[\w.]+(\[[^\]\s]*\])*$/.test(expr) ? expr : `(${expr})`);

/**
 * The uses of `node`'s value, given its ancestors (outermost first, the parent last). `expr` is the
 * source the samples evaluate: `node`'s own, or the expression of the feature whose value flows
 * through `node` unchanged (`a or b`, `a if c else b`).
 */
export function usesOf(node: A.Expr, ancestors: readonly A.Node[], source: string, expr = src(node, source)): Use[] {
  const p = ancestors[ancestors.length - 1];
  const up = ancestors.slice(0, -1);
  if (!p) return [{ kind: "escapes", expr }];
  // Only expressions pass a value on unchanged, so `p` is one wherever this is called.
  const flow = (): Use[] => usesOf(p as A.Expr, up, source, expr);
  const e = operand(expr);
  switch (p.kind) {
    case "Output":
      return [{ kind: "text", sample: `{{ ${e} }}` }];
    case "If":
      return [{ kind: "truth", expr }];
    case "For":
      // The iterable's items go to the loop's names.
      return [{ kind: node === p.filter ? "truth" : "escapes", expr }];
    case "Conditional":
      return node === p.test ? [{ kind: "truth", expr }] : flow();
    case "Unary":
      return [{ kind: p.op === "not" ? "truth" : "value", expr }];
    case "Binary":
      switch (p.op) {
        case "and":
        case "or":
          // Python's `and`/`or` test the left operand and give back one of the two as they are.
          return node === p.left ? [{ kind: "truth", expr }, ...flow()] : flow();
        case "~":
          return [{ kind: "text", sample: node === p.left ? `{{ ${e} ~ '' }}` : `{{ '' ~ ${e} }}` }];
        case "%": {
          if (node === p.left) return [{ kind: "value", expr }];
          const format = p.left.kind === "Str" ? src(p.left, source) : "'%s'";
          return [{ kind: "text", sample: `{{ ${format} % ${e} }}` }];
        }
      }
      return [{ kind: "value", expr }];
    case "Compare":
    case "Test":
    case "Slice":
      return [{ kind: "value", expr }];
    case "GetAttr":
      // A member of the value: the samples read the same member.
      return usesOf(p, up, source, `${e}.${p.attr}`);
    case "GetItem":
      if (node === p.object && isLiteral(p.index)) return usesOf(p, up, source, `${e}[${src(p.index, source)}]`);
      return [{ kind: "value", expr }];
    case "Filter": {
      if (node !== p.expr) return PASS_THROUGH_FILTERS.has(p.name) ? flow() : [{ kind: "escapes", expr }];
      const args = literalArgs(p, source);
      const call = args ? `${p.name}(${args})` : p.name;
      if (PASS_THROUGH_FILTERS.has(p.name))
        return args === null ? [{ kind: "value", expr }, ...flow()] : usesOf(p, up, source, `${e} | ${call}`);
      if (!TEXT_FILTERS.has(p.name)) return [{ kind: "value", expr }];
      return args === null ? [{ kind: "escapes", expr }] : [{ kind: "text", sample: `{{ ${e} | ${call} }}` }];
    }
    case "Call":
      return [{ kind: node === p.callee ? "value" : "escapes", expr }];
  }
  return [{ kind: "escapes", expr }];
}
