// Where llama.cpp's engine refuses a template, found on our (Jinja2-shaped) AST, one rule per
// construct — for diagnostics, which report every such construct at once, while rendering with the
// engine's own parser (parser.ts) stops at the first. A "parse" refusal fails every render (the
// engine compiles first); a "render" refusal fails when the construct is reached. Messages are the
// engine's own words (after "failed to compile template: " or "Error: "); syntaxRules.test.ts
// checks each rule against the engine.
import type * as A from "../../parser";
import type { Refusal } from "../../interpreter/kit";

const parseRefusal = (message: string): Refusal => ({ code: "syntax/unsupported", message, when: "parse" });
const renderRefusal = (message: string): Refusal => ({ code: "runtime/unsupported", message, when: "render" });

/** parse_primary_expression on a token it cannot start with; 7 is close_paren, 22 `*` `/` `%`, 9 `%}`. */
const unexpected = (value: string, type: number) => parseRefusal(`Unexpected token: ${value} of type ${type}`);

/** `expect(close, …)` meeting another token: "Parser Error: Expected }} (Got 3)". */
function expected(ancestors: readonly A.Node[], got: string): Refusal {
  const tag = [...ancestors].reverse().find((n) => n.kind === "Output" || isStatement(n));
  return parseRefusal(`parser: Parser Error: Expected ${tag?.kind === "Output" ? "}}" : "%}"} (Got ${got})`);
}

function isStatement(n: A.Node): boolean {
  return !EXPRESSION_KINDS.has(n.kind);
}

const EXPRESSION_KINDS = new Set<string>([
  "Const",
  "Str",
  "Int",
  "Float",
  "Name",
  "GetAttr",
  "GetItem",
  "Slice",
  "Call",
  "Filter",
  "Test",
  "Unary",
  "Binary",
  "Compare",
  "Conditional",
  "List",
  "Tuple",
  "Dict",
  "ErrorExpr",
]);

/** The value of the token llama's lexer reads at `pos` (after blanks), as its messages quote it. */
function llamaTokenAt(source: string, pos: number): string {
  const rest = source.slice(pos).replace(/^[ \t\n\v\f\r]+/, "");
  const m =
    /^(['"])((?:\\.|(?!\1).)*)\1/s.exec(rest) ??
    /^[+-]?\d+(?:\.\d+)?/.exec(rest) ??
    /^[A-Za-z0-9_]+/.exec(rest) ??
    /^(?:[{%]-|-[%}]|\{\{-|-\}\}|\{%|%\}|\{\{|\}\}|<=|>=|==|!=|[(){}[\],.:|<>+\-~*/%=])/.exec(rest);
  if (!m) return rest.slice(0, 1);
  return m[1] !== undefined && m[2] !== undefined ? m[2] : m[0];
}

const ESCAPES = new Set(["n", "t", "r", "b", "f", "v", "\\", "'", '"']);

/** lexer.cpp consume_while: any escape outside \n \t \r \b \f \v \\ \' \" is an error. */
function badEscape(raw: string): string | null {
  let quote: string | null = null;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (quote === null) {
      if (c === "'" || c === '"') quote = c;
    } else if (c === "\\") {
      if (!ESCAPES.has(raw[i + 1])) return raw[i + 1] ?? "";
      i++;
    } else if (c === quote) {
      quote = null;
    }
  }
  return null;
}

const INT64_MAX = 9223372036854775807n;

function literalRefusal(node: A.Int | A.Float, ancestors: readonly A.Node[], source: string): Refusal | null {
  const raw = source.slice(node.start, node.end);
  const decimal = /^\d+(?:\.\d+)?/.exec(raw)![0];
  // `0x1F`, `1_000`, `1e3`: llama reads the leading digits, then an identifier it cannot place.
  if (decimal.length < raw.length) return expected(ancestors, llamaTokenAt(source, node.start + decimal.length));
  if (node.kind === "Int" && node.value > INT64_MAX) {
    const parent = ancestors[ancestors.length - 1];
    const negated = parent?.kind === "Unary" && parent.op === "-" && parent.opSpan.end === node.start;
    if (!negated || node.value > INT64_MAX + 1n) return parseRefusal("stoll");
  }
  return null;
}

/** Every tag of a statement: where a `+` sign (which llama has no notion of) can sit. */
function tagsOf(node: A.Stmt): { span: A.Span; bare: boolean }[] {
  const tags: { span: A.Span; bare: boolean }[] = [];
  if ("openTag" in node) tags.push({ span: node.openTag, bare: false });
  if ("endTag" in node && node.endTag) tags.push({ span: node.endTag, bare: true });
  if ("elseTag" in node && node.elseTag) tags.push({ span: node.elseTag, bare: true });
  if (node.kind === "If") for (const b of node.branches.slice(1)) tags.push({ span: b.tag, bare: false });
  if (node.kind === "Set" || node.kind === "Break" || node.kind === "Continue") tags.push({ span: node, bare: node.kind !== "Set" });
  return tags;
}

function plusSignRefusal(node: A.Stmt, source: string): Refusal | null {
  for (const { span, bare } of tagsOf(node)) {
    // `{%+ if` lexes `+` as a unary operator where a statement name must be.
    if (source[span.start + 2] === "+") return parseRefusal("Unknown statement");
    if (source[span.end - 3] === "+") return bare ? parseRefusal("parser: Parser Error: Expected %} (Got +)") : unexpected("%}", 9);
  }
  return null;
}

function callArgsRefusal(node: A.CallArgs): Refusal | null {
  if (node.starKwargs) return unexpected("*", 22);
  if (node.starArgs) return renderRefusal("cannot exec SpreadExpression");
  return null;
}

const UNKNOWN_STATEMENT: Partial<Record<A.Node["kind"], string>> = {
  Raw: "raw",
  With: "with",
  Include: "include",
  Import: "import",
  FromImport: "from",
  Extends: "extends",
  BlockStmt: "block",
};

/** The refusal llama.cpp v0.5.0 makes at `node`, or null; `ancestors` ends with the parent. */
export function llamacppSyntaxRule(node: A.Node, ancestors: readonly A.Node[], source: string): Refusal | null {
  const unknown = UNKNOWN_STATEMENT[node.kind];
  if (unknown) return parseRefusal(`Unknown statement: ${unknown}`);
  switch (node.kind) {
    case "Binary":
      if (node.op === "**") return unexpected("*", 22);
      if (node.op === "//") return unexpected("/", 22);
      // After a dict literal's `}` the lexer reads `+`/`-` as a unary sign, so `{} + x` does not parse.
      if (
        (node.op === "+" || node.op === "-") &&
        source.slice(node.left.start, node.opSpan.start).trimEnd().endsWith("}") &&
        node.left.kind === "Dict"
      ) {
        return expected(ancestors, llamaTokenAt(source, node.opSpan.start));
      }
      return null;
    case "Str": {
      const c = badEscape(source.slice(node.start, node.end));
      return c === null ? null : parseRefusal(`lexer: unknown escape character \\${c}`);
    }
    case "Int":
    case "Float":
      return literalRefusal(node, ancestors, source);
    case "Name":
      // isalnum in the C locale: a non-ASCII identifier is an "unexpected character" (its first byte).
      return /^[A-Za-z0-9_]*$/.test(node.name) ? null : parseRefusal("lexer: unexpected character: \ufffd");
    case "Tuple":
      // `(1,)`, `()` and a trailing comma: parse_expression_sequence wants an expression after each comma.
      if (node.parenthesized)
        return node.items.length < 2 || source.slice(node.items[node.items.length - 1].end, node.end).includes(",")
          ? unexpected(")", 7)
          : null;
      return tupleRefusal(node, ancestors, source);
    case "Test":
      if (node.name.includes(".")) return expected(ancestors, ".");
      if ((node.args.length || node.kwargs.length) && llamaTokenAt(source, node.nameSpan.end) !== "(") {
        return expected(ancestors, llamaTokenAt(source, node.nameSpan.end));
      }
      return callArgsRefusal(node);
    case "Filter":
      if (node.name.includes(".")) return expected(ancestors, ".");
      return callArgsRefusal(node);
    case "Call":
      return callArgsRefusal(node);
    case "For":
      return node.recursive ? parseRefusal("parser: Parser Error: Expected %} (Got recursive)") : plusSignRefusal(node, source);
    case "FilterBlock":
      return node.filter.expr !== null ? parseRefusal("parser: Parser Error: Expected %} (Got |)") : plusSignRefusal(node, source);
    case "CallBlock":
      return node.call.callee.kind === "Name" ? plusSignRefusal(node, source) : callBlockCalleeRefusal(node.call.callee, source);
    case "SetBlock":
      // The assignee parses as the filter expression `x | f`, which `set` cannot assign to.
      return node.filter ? renderRefusal("Invalid LHS inside assignment expression: FilterExpression") : plusSignRefusal(node, source);
    case "If":
    case "Set":
    case "Macro":
    case "Generation":
    case "Break":
    case "Continue":
      return plusSignRefusal(node, source);
  }
  return null;
}

/** `{% call %}` takes one primary expression, which must be a name, then its argument list. */
function callBlockCalleeRefusal(callee: A.Expr, source: string): Refusal {
  let head = callee;
  while (head.kind === "GetAttr" || head.kind === "GetItem" || head.kind === "Call")
    head = head.kind === "Call" ? head.callee : head.object;
  if (head.kind !== "Name") return parseRefusal("Expected identifier");
  return parseRefusal(`parser: Parser Error: Expected ( (Got ${llamaTokenAt(source, head.end)})`);
}

/** An unparenthesised tuple parses only where `parse_expression_sequence` is used (set, for targets). */
function tupleRefusal(node: A.Tuple, ancestors: readonly A.Node[], source: string): Refusal | null {
  const parent = ancestors[ancestors.length - 1];
  if (parent?.kind === "Set" || parent?.kind === "SetBlock" || (parent?.kind === "For" && parent.target === node)) return null;
  if (parent?.kind === "GetItem") return unexpected(",", 16);
  const comma = source.indexOf(",", node.items[0]?.end ?? node.start);
  return expected(ancestors, llamaTokenAt(source, comma));
}
