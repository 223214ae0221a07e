// What @huggingface/jinja's lexer and parser (lexer.ts, parser.ts) do with constructs Jinja2's
// grammar accepts: refuse them (`new Template()` throws, so every render fails), or group operators
// differently (reported as not reproduced). Evidence: docs/dialects/hfjinja-0.5.13.md.
import type * as A from "../../parser";
import { type Refusal } from "../../interpreter/kit";
import { within } from "../../parser";

const parse = (code: string, message: string): Refusal => ({ code: `syntax/${code}`, message, when: "parse" });
const notReproduced = (message: string): Refusal => ({ code: "runtime/not-reproduced", message, when: "render" });

const STATEMENT: Partial<Record<A.Node["kind"], string>> = {
  Raw: "raw",
  With: "with",
  Autoescape: "autoescape",
  Include: "include",
  Import: "import",
  FromImport: "from",
  Extends: "extends",
  BlockStmt: "block",
};

const ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", "'": "'", '"': '"', "\\": "\\" };

/** lexer.ts consumeString over one or more adjacent literals, or the character it refuses. */
function decode(raw: string): { value: string } | { bad: string } {
  let value = "";
  for (let i = 0; i < raw.length; i++) {
    const quote = raw[i];
    if (quote !== "'" && quote !== '"') continue;
    for (i++; raw[i] !== quote; i++) {
      if (raw[i] !== "\\") {
        value += raw[i];
        continue;
      }
      const c = raw[++i];
      if (c === "x" || c === "u") {
        const hex = raw.slice(i + 1, i + 1 + (c === "x" ? 2 : 4));
        if (!/^[0-9a-f]+$/i.test(hex) || hex.length !== (c === "x" ? 2 : 4))
          return { bad: `Invalid hexadecimal escape sequence: \\${c}${hex}` };
        value += String.fromCharCode(parseInt(hex, 16));
        i += hex.length;
      } else if (Object.hasOwn(ESCAPES, c)) {
        value += ESCAPES[c];
      } else {
        return { bad: `Unexpected escaped character: ${c}` };
      }
    }
  }
  return { value };
}

/** Whether `e` is wrapped in parentheses in the source (the AST keeps no parentheses). */
function parenthesized(e: A.Expr, source: string): boolean {
  let i = e.start - 1;
  while (i >= 0 && /\s/.test(source[i])) i--;
  return source[i] === "(";
}

/**
 * The innermost bracket open at `pos` and whether the parser reads it element by element (call or
 * filter arguments, a list, a subscript): juxtaposed expressions are more elements there (`[1 2]` is
 * `[1, 2]`), so what fails to parse elsewhere parses there — into something else. Parentheses that
 * group want their `)`, a dict its `:`.
 */
function innermost(source: string, pos: number): { ch: string; list: boolean } | undefined {
  const tag = Math.max(source.lastIndexOf("{{", pos), source.lastIndexOf("{%", pos));
  const open: { ch: string; list: boolean }[] = [];
  for (let i = tag + 2; i < pos; i++) {
    const c = source[i];
    if (c === "'" || c === '"') {
      for (i++; i < pos && source[i] !== c; i++) if (source[i] === "\\") i++;
    } else if (c === "(") {
      const before = /([\w]+|[)\]'"])\s*$/.exec(source.slice(tag + 2, i));
      open.push({ ch: c, list: before !== null && !/^(not|and|or|in|is|if|elif|else)$/.test(before[1]) });
    } else if (c === "[" || c === "{") {
      open.push({ ch: c, list: c === "[" });
    } else if (c === ")" || c === "]" || c === "}") {
      open.pop();
    }
  }
  return open[open.length - 1];
}

/** A construct the parser cannot read: a syntax error, or (in brackets) a different tree. */
function unreadable(node: A.Node, at: number, ancestors: readonly A.Node[], source: string, code: string): Refusal {
  // In a macro's parameter list what follows is one more parameter, after one with a default.
  const inParams = ancestors.some(
    (a) => (a.kind === "Macro" || a.kind === "CallBlock") && a.params.some((p) => p.default && within(node, p.default)),
  );
  if (inParams) return parse(code, "SyntaxError: Non-default argument follows default argument");
  if (!innermost(source, at)?.list) return parse(code, expectedClose(source, at));
  // The leftover is one more positional argument: after a keyword one, that is a syntax error.
  const afterKeyword = ancestors.some((a) => (a.kind === "Call" || a.kind === "Filter") && a.kwargs.some((k) => within(node, k.value)));
  return afterKeyword
    ? parse(code, "SyntaxError: Positional arguments must come before keyword arguments")
    : notReproduced("the engine reads juxtaposed expressions here as separate items");
}

/** parser.ts `expect`: what the statement or expression wanted, and the token it found at `pos`. */
function expectedClose(source: string, pos: number): string {
  if (innermost(source, pos)?.ch === "{") return "Error: Parser Error: Expected colon between key and value in object literal.";
  const statement = source.lastIndexOf("{%", pos) > source.lastIndexOf("{{", pos);
  const [what, type] = statement ? ["statement", "CloseStatement"] : ["expression", "CloseExpression"];
  return `Error: Parser Error: Expected closing ${what} token. ${tokenTypeAt(source, pos)} !== ${type}.`;
}

/** The lexer's type of the token starting at `pos` (after whitespace). */
function tokenTypeAt(source: string, pos: number): string {
  const rest = source.slice(pos).trimStart();
  if (/^[0-9]/.test(rest)) return "NumericLiteral";
  if (/^\w/.test(rest)) return "Identifier";
  if (/^['"]/.test(rest)) return "StringLiteral";
  const ops: [string, string][] = [
    ["%}", "CloseStatement"],
    ["}}", "CloseExpression"],
    ["(", "OpenParen"],
    [")", "CloseParen"],
    ["[", "OpenSquareBracket"],
    ["]", "CloseSquareBracket"],
    ["{", "OpenCurlyBracket"],
    ["}", "CloseCurlyBracket"],
    [",", "Comma"],
    [".", "Dot"],
    [":", "Colon"],
    ["|", "Pipe"],
    ["==", "ComparisonBinaryOperator"],
    ["!=", "ComparisonBinaryOperator"],
    ["<", "ComparisonBinaryOperator"],
    [">", "ComparisonBinaryOperator"],
    ["**", "ExponentiationBinaryOperator"],
    ["*", "MultiplicativeBinaryOperator"],
    ["/", "MultiplicativeBinaryOperator"],
    ["%", "MultiplicativeBinaryOperator"],
    ["=", "Equals"],
    ["+", "AdditiveBinaryOperator"],
    ["-", "AdditiveBinaryOperator"],
    ["~", "AdditiveBinaryOperator"],
  ];
  return ops.find(([t]) => rest.startsWith(t))?.[1] ?? "Text";
}

/**
 * The filters of `{% set x | f %}`: the parser takes `x | f` for the target, so the statement fails
 * once its body has rendered (executeSet: "Invalid LHS"). The filter raises that when applied.
 */
export const SET_BLOCK_FILTERS = new WeakSet<A.Filter>();

export function hfRefusal(node: A.Node, ancestors: readonly A.Node[], source: string): Refusal | null {
  const parent = ancestors[ancestors.length - 1];
  const statement = STATEMENT[node.kind];
  if (statement) return parse("unknown-tag", `SyntaxError: Unknown statement type: ${statement}`);
  switch (node.kind) {
    case "For":
      return node.recursive
        ? parse("recursive-loop", "Error: Parser Error: Expected closing statement token. Identifier !== CloseStatement.")
        : null;
    case "Test":
      // parseTestExpression reads the name only.
      return node.args.length || node.kwargs.length || node.starArgs || node.starKwargs
        ? unreadable(node, node.nameSpan.end, ancestors, source, "test-arguments")
        : null;
    case "Int":
    case "Float": {
      // tokenize reads digits and one `.digits`: `1e3`, `1_000`, `0x1f` leave a name behind.
      const read = /^[0-9]+(\.[0-9]+)?/.exec(source.slice(node.start, node.end))![0];
      return read.length === node.end - node.start ? null : unreadable(node, node.start + read.length, ancestors, source, "number-literal");
    }
    case "Str": {
      const d = decode(source.slice(node.start, node.end));
      if ("bad" in d) return parse("string-escape", `SyntaxError: ${d.bad}`);
      return d.value === node.value ? null : notReproduced("the engine reads this string's escapes differently");
    }
    case "Tuple": {
      if (node.parenthesized) return node.items.length < 2 ? parse("tuple-literal", "SyntaxError: Unexpected token: CloseParen") : null;
      const allowed = (parent?.kind === "For" && parent.target === node) || parent?.kind === "Set";
      return allowed ? null : unreadable(node, node.items[0].end, ancestors, source, "bare-tuple");
    }
    case "CallBlock":
      return node.call.callee.kind === "Name" ? null : parse("call-callee", "SyntaxError: Expected identifier following call statement");
    case "FilterBlock":
      return node.filter.expr
        ? parse("filter-chain", "Error: Parser Error: Expected closing statement token. Pipe !== CloseStatement.")
        : null;
    case "SetBlock":
      for (let f: A.Expr | null = node.filter; f?.kind === "Filter"; f = f.expr) SET_BLOCK_FILTERS.add(f);
      return null;
    case "Compare":
      return node.ops.length > 1
        ? notReproduced("the engine chains comparisons left to right ((a < b) < c), not as a < b and b < c")
        : null;
    case "Binary":
      // `~` sits on the `+`/`-` level: `a ~ b + c` is (a ~ b) + c.
      return node.op === "~" &&
        node.right.kind === "Binary" &&
        (node.right.op === "+" || node.right.op === "-") &&
        !parenthesized(node.right, source)
        ? notReproduced("the engine reads `a ~ b + c` as (a ~ b) + c")
        : null;
    case "Template":
      // `{%+` / `+%}`: the `+` is an operator token where a statement name or `%}` must come.
      if (/\{%\+/.test(source)) return parse("plus-sign", "SyntaxError: Unknown statement, got UnaryOperator");
      return /\+%\}/.test(source) ? parse("plus-sign", "SyntaxError: Unexpected token: CloseStatement") : null;
  }
  return null;
}
