// What minja's parser does with constructs that Jinja2's grammar (our AST) accepts: refuse them —
// minja parses the whole template first, so one refusal fails every render — or group operators
// differently, which this interpreter does not reproduce. Evidence: docs/dialects/minja-021c229.md.
import type * as A from "../../parser";
import { type Refusal } from "../../interpreter/kit";
import { walk } from "../../parser";

const parse = (code: string, message: string): Refusal => ({ code: `syntax/${code}`, message, when: "parse" });
const notReproduced = (message: string): Refusal => ({ code: "runtime/not-reproduced", message, when: "render" });
const atRender = (code: Refusal["code"], message: string): Refusal => ({ code, message, when: "render" });

/** Tags whose keyword is not in minja's `block_keyword_tok`. */
const UNKNOWN_TAGS: ReadonlySet<A.Node["kind"]> = new Set(["Raw", "With", "Autoescape", "Include", "Import", "FromImport", "Extends"]);

/** minja decodes only these escapes; any other `\c` is `c` (Parser::parseString). */
const MINJA_ESCAPES: Readonly<Record<string, string>> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", "\\": "\\" };

export function minjaRefusal(node: A.Node, ancestors: readonly A.Node[], source: string): Refusal | null {
  const parent = ancestors[ancestors.length - 1];
  const stop = (code: string, at: number) => parse(code, expectedAt(source, at));
  switch (node.kind) {
    case "GetAttr":
      if (node.numeric) return parse("numeric-attribute", "Expected identifier in subscript");
      return afterPlainCall(node.object, source) ? stop("call-postfix", node.object.end) : null;
    case "GetItem":
      return afterPlainCall(node.object, source) ? stop("call-postfix", node.object.end) : null;
    case "Call":
      if (afterPlainCall(node.callee, source)) return stop("call-postfix", node.callee.end);
      if (node.callee.kind === "Name" && node.callee.name === "loop" && ancestors.some((a) => a.kind === "For" && a.recursive)) {
        return atRender("runtime/unsupported", "minja crashes here: loop() recurses into the outer list forever (stack overflow)");
      }
      return macroArguments(node, ancestors[0]);
    case "Test":
      if (node.args.length || node.kwargs.length || node.starArgs || node.starKwargs) return stop("test-arguments", node.nameSpan.end);
      return testGrouping(node, parent, source);
    case "Tuple":
      return tupleRefusal(node, parent, source);
    case "Str":
      return stringRefusal(node, source);
    case "Int":
    case "Float":
      return numberRefusal(source.slice(node.start, node.end), node.start, source);
    case "Binary":
      return binaryGrouping(node);
    case "Compare":
      if (node.ops.length > 1) return notReproduced("minja chains comparisons left to right ((a < b) < c), not as a < b and b < c");
      return concatSwallows(node.left) ? notReproduced("minja reads `a ~ b == c` as a ~ (b == c)") : null;
    case "Filter":
      return parent?.kind === "Binary" && parent.right === node && isMulDiv(parent.op)
        ? notReproduced("minja applies a filter to the whole `*`/`/` chain: `a * b | f` is (a * b) | f")
        : null;
    case "CallBlock":
      if (node.params.length) return parse("call-parameters", "Expected closing block tag");
      return node.call.callee.kind === "GetAttr"
        ? atRender("runtime/unsupported", "Invalid call block syntax - expected function call")
        : null;
    case "SetBlock":
      return node.filter ? parse("set-block-filter", "Expected closing block tag") : null;
    case "FilterBlock":
      // `{% filter a | b %}` is one expression to minja; calling its value on the body fails.
      return node.filter.expr ? atRender("runtime/unsupported", "Filter must be a callable") : null;
    case "BlockStmt":
      return parse("unknown-tag", "Unexpected block: block");
    case "Template":
      // block_open_regex / block_close_regex take `-` or `~`, not `+`.
      if (/\{%\+/.test(source)) return parse("plus-sign", "Expected block keyword");
      return /\+%\}/.test(source) ? parse("plus-sign", "Expected closing block tag") : null;
    default:
      return UNKNOWN_TAGS.has(node.kind) ? parse("unknown-tag", "Expected block keyword") : null;
  }
}

/**
 * What minja says when an expression ends early at `pos` and something else follows: the message of
 * the construct that was expecting its next token (the innermost open bracket, else the tag).
 */
export function expectedAt(source: string, pos: number): string {
  const tag = Math.max(source.lastIndexOf("{{", pos), source.lastIndexOf("{%", pos));
  const open: { ch: string; call: boolean }[] = [];
  for (let i = tag + 2; i < pos; i++) {
    const c = source[i];
    if (c === "'" || c === '"') {
      for (i++; i < pos && source[i] !== c; i++) if (source[i] === "\\") i++;
    } else if (c === "(" || c === "[" || c === "{") {
      open.push({ ch: c, call: followsValue(source.slice(tag + 2, i)) });
    } else if (c === ")" || c === "]" || c === "}") {
      open.pop();
    }
  }
  const inner = open[open.length - 1];
  if (!inner) return source[tag + 1] === "{" ? "Expected closing expression tag" : "Expected closing block tag";
  if (inner.ch === "(") return inner.call ? "Expected closing parenthesis in call args" : "Expected comma in tuple";
  if (inner.ch === "[") return inner.call ? "Expected closing bracket in subscript" : "Expected comma or closing bracket in array";
  return "Expected comma or closing brace in dictionary";
}

/** Whether a bracket opened right after `before` calls or subscripts a value (else it starts a literal). */
function followsValue(before: string): boolean {
  const m = /([\w]+|[)\]'"])\s*$/.exec(before);
  return m !== null && !/^(not|and|or|in|is|if|elif|else)$/.test(m[1]);
}

/**
 * minja reads `.name`, `[i]` and method calls in a loop and then one optional call; a plain call
 * (not `x.method(…)`) ends the expression, so `f(x).y`, `f(x)[0]` and `f(x)(y)` do not parse.
 * Parentheses restart it: `(f(x))[0]` is fine.
 */
function afterPlainCall(e: A.Expr, source: string): boolean {
  if (e.kind !== "Call" || e.callee.kind === "GetAttr") return false;
  let i = e.end;
  while (i < source.length && /\s/.test(source[i])) i++;
  return source[i] !== ")";
}

function tupleRefusal(node: A.Tuple, parent: A.Node | undefined, source: string): Refusal | null {
  const isTarget = (parent?.kind === "For" || parent?.kind === "Set") && parent.target === node;
  if (isTarget) {
    // parseVarNames: `a, b` only — no parentheses, no nested tuples, no attributes.
    return node.parenthesized || node.items.some((i) => i.kind !== "Name") ? parse("tuple-target", "Expected variable names") : null;
  }
  if (!node.parenthesized) return parse("bare-tuple", expectedAt(source, node.items[0].end));
  // `()` and `(x,)` need an expression after every comma.
  return node.items.length < 2 ? parse("tuple-literal", "Expected value expression") : null;
}

function stringRefusal(node: A.Str, source: string): Refusal | null {
  const raw = source.slice(node.start, node.end);
  const quote = raw[0];
  let value = "";
  let i = 1;
  for (; i < raw.length && raw[i] !== quote; i++) {
    if (raw[i] === "\\" && i + 1 < raw.length) value += MINJA_ESCAPES[raw[++i]] ?? raw[i];
    else value += raw[i];
  }
  if (i + 1 < raw.length) return parse("adjacent-strings", expectedAt(source, node.start + i + 1));
  return value === node.value
    ? null
    : notReproduced(`minja reads the escapes in ${raw} differently (only \\n \\r \\t \\b \\f \\\\ and the quote are escapes)`);
}

/**
 * Parser::parseNumber takes digits, one `.` and one `e`, then json::parse: `1_000` and `0x1f` stop
 * early (what follows is a name), `1e+3` reads `1e`, which is no number.
 */
function numberRefusal(raw: string, start: number, source: string): Refusal | null {
  const scanned = /^[0-9]*\.?[0-9]*(?:[eE][0-9]*)?/.exec(raw)![0];
  if (scanned === raw) return null;
  if (/[eE]$/.test(scanned)) return parse("number-literal", `Failed to parse number: '${scanned}'`);
  return parse("number-literal", expectedAt(source, start + scanned.length));
}

function isMulDiv(op: A.BinaryOp): boolean {
  return op === "*" || op === "/" || op === "//" || op === "%" || op === "**";
}

function binaryGrouping(node: A.Binary): Refusal | null {
  // minja parses `**` on the `*` level, left to right: `2 * 3 ** 2` is (2 * 3) ** 2.
  if (isMulDiv(node.op) && node.op !== "**" && node.right.kind === "Binary" && node.right.op === "**") {
    return notReproduced("minja gives `**` the precedence of `*`: `a * b ** c` is (a * b) ** c");
  }
  if (node.op === "and" && concatSwallows(node.left)) return notReproduced("minja reads `a ~ b and c` as a ~ (b and c)");
  return null;
}

/** The right operand of minja's `~` is a whole `and` expression, so a `~` at the right end of `e` takes what follows. */
function concatSwallows(e: A.Expr): boolean {
  for (;;) {
    if (e.kind === "Binary") {
      if (e.op === "~") return true;
      if (e.op === "or") return false;
      e = e.right;
    } else if (e.kind === "Unary" && e.op === "not") {
      e = e.operand;
    } else if (e.kind === "Compare") {
      e = e.ops[e.ops.length - 1].right;
    } else {
      return false;
    }
  }
}

/** minja's `is` takes the whole comparison operand on its left and ends the comparison. */
function testGrouping(node: A.Test, parent: A.Node | undefined, source: string): Refusal | null {
  if (parent?.kind === "Compare") {
    return parent.left === node
      ? parse("test-compare", expectedAt(source, node.end))
      : notReproduced("minja reads `a == b is t` as (a == b) is t");
  }
  // `a ~ b is t` is a ~ (b is t) in both engines: `~` takes a whole comparison on its right.
  if (parent?.kind === "Binary" && parent.op !== "and" && parent.op !== "or" && parent.op !== "~" && parent.right === node) {
    return notReproduced(`minja reads \`a ${parent.op} b is t\` as (a ${parent.op} b) is t`);
  }
  return null;
}

const macrosCache = new WeakMap<A.Node, Map<string, A.Macro>>();

function macrosOf(root: A.Node): Map<string, A.Macro> {
  let m = macrosCache.get(root);
  if (!m) {
    const found = new Map<string, A.Macro>();
    walk(root, (n) => {
      if (n.kind === "Macro") found.set(n.name, n);
    });
    macrosCache.set(root, (m = found));
  }
  return m;
}

/** MacroNode binds parameters by position and name only: no `varargs`, no `kwargs` (micro:macro-varargs). */
function macroArguments(call: A.Call, root: A.Node | undefined): Refusal | null {
  if (call.callee.kind !== "Name" || !root || call.starArgs || call.starKwargs) return null;
  const macro = macrosOf(root).get(call.callee.name);
  if (!macro) return null;
  if (call.args.length > macro.params.length) return atRender("runtime/type", `Too many positional arguments for macro ${macro.name}`);
  const extra = call.kwargs.find((k) => !macro.params.some((p) => p.name === k.name));
  return extra ? atRender("runtime/type", `Unknown parameter name for macro ${macro.name}: ${extra.name}`) : null;
}
