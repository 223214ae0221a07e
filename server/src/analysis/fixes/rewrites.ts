// Rewrites of one construct into a spelling every engine runs the same way. A rewrite is only a
// proposal: quickFixes.ts offers it after checking that Jinja2 renders the rewritten template byte
// for byte as before on every sample scenario, and that the engine's finding goes away.
import type { Span, TemplateDocument } from "../../document";
import type * as A from "../../parser";

export interface TextEdit extends Span {
  newText: string;
}

export interface Rewrite {
  title: string;
  edits: TextEdit[];
}

type Rule = (doc: TemplateDocument, node: A.Node, ancestors: readonly A.Node[]) => Rewrite | null;

const src = (doc: TemplateDocument, s: Span): string => doc.text.slice(s.start, s.end);

/** Operands that need no parentheses wherever they are put. */
function atomic(e: A.Expr): boolean {
  return (
    e.kind === "Name" ||
    e.kind === "Str" ||
    e.kind === "Int" ||
    e.kind === "Float" ||
    e.kind === "Const" ||
    e.kind === "GetAttr" ||
    e.kind === "GetItem" ||
    e.kind === "Call"
  );
}

const operand = (doc: TemplateDocument, e: A.Expr): string => (atomic(e) ? src(doc, e) : `(${src(doc, e)})`);

/** `x.0` → `x[0]` (Jinja2 reads both as an item lookup; minja refuses the first). */
const numericAttribute: Rule = (doc, n) => {
  if (n.kind !== "GetAttr" || !n.numeric) return null;
  return { title: `Write ${src(doc, n.object)}[${n.attr}]`, edits: [{ start: n.object.end, end: n.end, newText: `[${n.attr}]` }] };
};

/** `a // b` → `(a / b) | int` (the same for the non-negative ints chat templates divide). */
const floorDivision: Rule = (doc, n) => {
  if (n.kind !== "Binary" || n.op !== "//") return null;
  return {
    title: "Write the floor division with / and | int",
    edits: [{ start: n.start, end: n.end, newText: `(${operand(doc, n.left)} / ${operand(doc, n.right)}) | int` }],
  };
};

/** `a ** 2` → `(a * a)`, for the small integer powers templates use. */
const power: Rule = (doc, n) => {
  if (n.kind !== "Binary" || n.op !== "**" || n.right.kind !== "Int" || n.right.value < 1n || n.right.value > 4n) return null;
  const factor = operand(doc, n.left);
  return {
    title: "Write the power as a product",
    edits: [{ start: n.start, end: n.end, newText: `(${Array(Number(n.right.value)).fill(factor).join(" * ")})` }],
  };
};

/** A string literal in the quotes of `like`, with every escape both Jinja2 and llama.cpp read. */
function quoted(s: string, like: string): string {
  const q = like === '"' ? '"' : "'";
  const body = s
    .replace(/[\\\n\r\t]/g, (c) => ({ "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" })[c]!)
    .split(q)
    .join(`\\${q}`);
  return q + body + q;
}

/** `'a %s b' % x` → `('a ' ~ x ~ ' b')`: `~` prints a value as `%s` does. */
const percentFormat: Rule = (doc, n) => {
  if (n.kind !== "Binary" || n.op !== "%" || n.left.kind !== "Str") return null;
  const pieces = n.left.value.split(/(%%|%s)/);
  const holes = pieces.filter((p) => p === "%s").length;
  const values = n.right.kind === "Tuple" ? n.right.items : [n.right];
  if (holes === 0 || holes !== values.length || pieces.some((p) => /%(?![%s])/.test(p) && p !== "%%")) return null;
  const quote = doc.text[n.left.start];
  const parts: string[] = [];
  let text = "";
  let k = 0;
  for (const p of pieces) {
    if (p === "%s") {
      if (text) parts.push(quoted(text, quote));
      parts.push(operand(doc, values[k++]));
      text = "";
    } else {
      text += p === "%%" ? "%" : p;
    }
  }
  if (text) parts.push(quoted(text, quote));
  return { title: "Build the string with ~ instead of %", edits: [{ start: n.start, end: n.end, newText: `(${parts.join(" ~ ")})` }] };
};

/** `loop.cycle(a, b)` → `[a, b][loop.index0 % 2]`. */
const loopCycle: Rule = (doc, n) => {
  if (
    n.kind !== "Call" ||
    n.callee.kind !== "GetAttr" ||
    n.callee.attr !== "cycle" ||
    n.callee.object.kind !== "Name" ||
    n.callee.object.name !== "loop"
  )
    return null;
  if (n.args.length === 0 || n.kwargs.length || n.starArgs || n.starKwargs) return null;
  const items = n.args.map((a) => src(doc, a)).join(", ");
  return {
    title: "Index a list with loop.index0 instead of loop.cycle",
    edits: [{ start: n.start, end: n.end, newText: `[${items}][loop.index0 % ${n.args.length}]` }],
  };
};

/** `x is undefined` → `x is not defined` (and the reverse): minja has no `undefined` test. */
const undefinedTest: Rule = (_doc, n) => {
  if (n.kind !== "Test" || n.name !== "undefined" || n.args.length || n.kwargs.length) return null;
  return {
    title: `Write ${n.negated ? "is defined" : "is not defined"}`,
    edits: [{ start: n.expr.end, end: n.end, newText: ` is ${n.negated ? "" : "not "}defined` }],
  };
};

/** `tojson(ensure_ascii=False)` → `tojson`: HF's tojson never escapes non-ASCII anyway. */
const ensureAscii: Rule = (_doc, n) => {
  if (n.kind !== "Filter" || n.name !== "tojson") return null;
  const k = n.kwargs.findIndex((kw) => kw.name === "ensure_ascii" && kw.value.kind === "Const" && kw.value.value === false);
  if (k < 0) return null;
  const kw = n.kwargs[k];
  const others: Span[] = [...n.args, ...n.kwargs.filter((_, i) => i !== k)];
  let edit: TextEdit;
  if (others.length === 0) {
    edit = { start: n.nameSpan.end, end: n.end, newText: "" };
  } else {
    // Drop the keyword with the comma that separates it from its neighbour.
    const before = others.filter((o) => o.end <= kw.start).pop();
    const after = others.find((o) => o.start >= kw.end);
    edit = before ? { start: before.end, end: kw.end, newText: "" } : { start: kw.start, end: after!.start, newText: "" };
  }
  return { title: "Drop ensure_ascii=False (it is tojson's default in HF transformers)", edits: [edit] };
};

/** The loop that binds `name` around the node, if it is a plain `for name in …` without a filter. */
function loopOf(name: string, ancestors: readonly A.Node[]): A.For | null {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const a = ancestors[i];
    if (a.kind === "Macro") return null;
    if (a.kind === "For" && a.target.kind === "Name" && a.target.name === name) return a.filter ? null : a;
  }
  return null;
}

/** `'x' in tool` that trips on a null tool → `{% for tool in tools if tool %}`. */
const skipNullItems: Rule = (doc, n, ancestors) => {
  if (n.kind !== "Compare" || n.ops.length !== 1 || (n.ops[0].op !== "in" && n.ops[0].op !== "not in") || n.ops[0].right.kind !== "Name")
    return null;
  const name = n.ops[0].right.name;
  const loop = loopOf(name, ancestors);
  if (!loop) return null;
  return {
    title: `Skip null items: for ${name} in ${src(doc, loop.iter)} if ${name}`,
    edits: [{ start: loop.iter.end, end: loop.iter.end, newText: ` if ${name}` }],
  };
};

/** `f(x).y`, `f(x)[0]` → `(f(x)).y`: minja ends an expression after a plain call. */
const parenthesizedCall: Rule = (doc, n) => {
  const inner = n.kind === "GetAttr" || n.kind === "GetItem" ? n.object : n.kind === "Call" ? n.callee : null;
  if (!inner || inner.kind !== "Call" || inner.callee.kind === "GetAttr") return null;
  if (doc.text[inner.start - 1] === "(" && doc.text[inner.end] === ")") return null;
  return {
    title: `Parenthesize ${src(doc, inner.callee)}(…)`,
    edits: [
      { start: inner.start, end: inner.start, newText: "(" },
      { start: inner.end, end: inner.end, newText: ")" },
    ],
  };
};

/** `{% raw %}…{% endraw %}` → `{{ '…' }}`, keeping the whitespace the raw tags trimmed. */
const rawBlock: Rule = (doc, n) => {
  if (n.kind !== "Raw" || !n.endTag) return null;
  const open = doc.text[n.openTag.start + 2] === "-" ? "-" : "";
  const close = doc.text[n.endTag.end - 3] === "-" ? "-" : "";
  let start = n.start;
  let end = n.end;
  // lstrip_blocks drops the indentation before `{% raw %}` and trim_blocks the newline after
  // `{% endraw %}`; `{{ }}` does neither, so the rewrite takes them out with the tags.
  const lineStart = doc.text.lastIndexOf("\n", start - 1) + 1;
  if (!open && doc.text[n.openTag.start + 2] !== "+" && /^[ \t]*$/.test(doc.text.slice(lineStart, start))) start = lineStart;
  if (!close && doc.text[n.endTag.end - 3] !== "+") end += doc.text.startsWith("\r\n", end) ? 2 : doc.text[end] === "\n" ? 1 : 0;
  return {
    title: "Write the raw text as a string literal",
    edits: [{ start, end, newText: `{{${open} ${quoted(n.text.value, "'")} ${close}}}` }],
  };
};

const RULES: readonly Rule[] = [
  numericAttribute,
  floorDivision,
  power,
  percentFormat,
  loopCycle,
  undefinedTest,
  ensureAscii,
  skipNullItems,
  parenthesizedCall,
  rawBlock,
];

/** The rewrites proposed for a construct an engine trips on. */
export function rewritesFor(doc: TemplateDocument, node: A.Node, ancestors: readonly A.Node[]): Rewrite[] {
  return RULES.map((r) => r(doc, node, ancestors)).filter((r): r is Rewrite => r !== null);
}

/** Applies non-overlapping edits to a text (of two insertions at one offset, the later one's text comes first). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = edits.map((e, i) => ({ e, i })).sort((a, b) => a.e.start - b.e.start || b.i - a.i);
  const parts: string[] = [];
  let at = 0;
  for (const { e } of sorted) {
    parts.push(text.slice(at, e.start), e.newText);
    at = e.end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}
