// The formatter's canonical layout, proposed as edits on a parsed template; format.ts keeps the ones its proof
// allows. It only ever moves whitespace: every token keeps its source spelling (quotes, number spellings,
// whitespace-control signs), so what can change is the text between tags, which the proof watches.
// - spacing: inside `{{ }}` and `{% %}`, one space after the opening and before the closing delimiter, one around
//   binary operators and `=` at the top of a tag, none around `.`, `|`, `:` in a slice, `=` of a keyword
//   argument, inside brackets and after a unary sign; line breaks inside a tag are kept, re-indented.
// - indent: each line that starts outside a tag, comment or raw block starts at its block depth.
// - split: a statement (or comment) next to another tag on one line moves to a line of its own.
import type { TemplateDocument } from "../document";
import { lex, type Template, type Token, walk } from "../parser";

export type LayoutKind = "spacing" | "indent" | "split";

export interface LayoutEdit {
  start: number;
  end: number;
  newText: string;
  kind: LayoutKind;
  /** indent and split: the gap (text between two units) the edit lies in. */
  gap: number;
}

/** A tag, comment or raw block: what the text of the template runs between. */
export interface Unit {
  kind: "variable" | "block" | "comment" | "raw";
  start: number;
  end: number;
  /** The opening and closing tokens (for raw, `{% raw %}` and `{% endraw %}`; for a comment, the comment). */
  open: Token;
  close: Token;
  /** The tokens between the delimiters of a tag. */
  inner: Token[];
}

/** The text between units: gap i ends where unit i starts (the last gap ends at the end of the template). */
export interface Gap {
  start: number;
  end: number;
  before: Unit | null;
  after: Unit | null;
}

export interface LayoutOptions {
  indentWidth: number;
  useTabs?: boolean;
}

/** The units and gaps of a template's token stream, in order. */
export function unitsOf(tokens: readonly Token[], textLength: number): { units: Unit[]; gaps: Gap[] } {
  const units: Unit[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === "comment") units.push({ kind: "comment", start: t.start, end: t.end, open: t, close: t, inner: [] });
    else if (t.type === "raw_begin") {
      let j = i + 1;
      while (j < tokens.length && tokens[j].type !== "raw_end" && tokens[j].type !== "eof") j++;
      units.push({ kind: "raw", start: t.start, end: tokens[j].end, open: t, close: tokens[j], inner: [] });
      i = j;
    } else if (t.type === "variable_begin" || t.type === "block_begin") {
      const closer = t.type === "variable_begin" ? "variable_end" : "block_end";
      let j = i + 1;
      while (j < tokens.length && tokens[j].type !== closer && tokens[j].type !== "eof") j++;
      const kind = t.type === "variable_begin" ? "variable" : "block";
      units.push({ kind, start: t.start, end: tokens[j].end, open: t, close: tokens[j], inner: tokens.slice(i + 1, j) });
      i = j;
    }
  }
  const gaps: Gap[] = units.map((u, i) => ({ start: i ? units[i - 1].end : 0, end: u.start, before: units[i - 1] ?? null, after: u }));
  gaps.push({
    start: units.length ? units[units.length - 1].end : 0,
    end: textLength,
    before: units[units.length - 1] ?? null,
    after: null,
  });
  return { units, gaps };
}

/**
 * Block depth at unit starts and in gaps: +1 after each block's opening tag, -1 at its end tag; `elif`/`else`
 * sit at their block's own depth. Depth is constant within a gap (no tag in it).
 */
function depths(template: Template, units: readonly Unit[], gaps: readonly Gap[]): { unit: number[]; gap: number[] } {
  const events: [number, number][] = [];
  const middle = new Set<number>();
  walk(template, (n) => {
    if (!("openTag" in n) || n.kind === "Raw") return;
    events.push([n.openTag.end, 1]);
    if (n.endTag) events.push([n.endTag.start, -1]);
    if (n.kind === "If") n.branches.slice(1).forEach((b) => middle.add(b.tag.start));
    if ((n.kind === "If" || n.kind === "For") && n.elseTag) middle.add(n.elseTag.start);
  });
  events.sort((a, b) => a[0] - b[0]);
  let e = 0;
  let d = 0;
  const upTo = (p: number) => {
    while (e < events.length && events[e][0] <= p) d += events[e++][1];
    return Math.max(0, d);
  };
  const unit: number[] = [];
  const gap: number[] = [];
  units.forEach((u, i) => {
    gap.push(upTo(gaps[i].start));
    unit.push(Math.max(0, upTo(u.start) - (middle.has(u.start) ? 1 : 0)));
  });
  gap.push(upTo(gaps[gaps.length - 1].start));
  return { unit, gap };
}

const OPENERS = new Set(["(", "[", "{"]);
const CLOSERS = new Set([")", "]", "}"]);
/** Words after which a sign is unary and a bracket opens a value, not a call or subscript. */
const KEYWORDS = new Set(
  "and or not in is if elif else for recursive as import include from with without context ignore missing set macro call filter block extends autoescape".split(
    " ",
  ),
);

const isOp = (t: Token | null, ...values: string[]) => t?.type === "operator" && values.includes(t.value);
const isKeyword = (t: Token | null, before: Token | null) => t?.type === "name" && KEYWORDS.has(t.value) && !isOp(before, ".");

/** The whitespace between two tokens of a tag under the canonical layout (on one line). */
function separator(prev: Token, prevUnary: boolean, before: Token | null, tok: Token, brackets: readonly string[]): string {
  const top = brackets[brackets.length - 1];
  if (isOp(prev, ...OPENERS) || isOp(tok, ...CLOSERS) || isOp(tok, ",")) return "";
  if (isOp(prev, ",")) return " ";
  if (isOp(tok, ".") || isOp(prev, ".") || isOp(tok, "|") || isOp(prev, "|")) return "";
  if (isOp(tok, ":")) return "";
  if (isOp(prev, ":")) return top === "[" ? "" : " ";
  if (isOp(tok, "=") || isOp(prev, "=")) return brackets.length ? "" : " ";
  if (prevUnary) return "";
  if (isOp(tok, "(", "[")) {
    const callable = (prev.type === "name" && !isKeyword(prev, before)) || prev.type === "string" || isOp(prev, ...CLOSERS);
    return callable ? "" : " ";
  }
  return " ";
}

/** A sign or star after an operator (not a closing bracket), a keyword or the tag's start applies to what follows. */
function unaryAt(tok: Token, prev: Token | null, before: Token | null): boolean {
  if (!isOp(tok, "-", "+", "*", "**")) return false;
  if (prev === null) return true;
  if (prev.type === "operator") return !CLOSERS.has(prev.value);
  return isKeyword(prev, before) && ["and", "or", "not", "in", "is", "if", "elif", "else"].includes(prev.value);
}

/** The tag's inner text in the canonical layout, or null when it would not lex to the same tokens. */
function respaced(text: string, u: Unit, depth: number, indent: (n: number) => string, eol: string): string | null {
  if (u.inner.length === 0) return null;
  let out = "";
  const brackets: string[] = [];
  let prev: Token | null = null;
  let before: Token | null = null;
  let prevUnary = false;
  for (const tok of u.inner) {
    const original = text.slice(prev ? prev.end : u.open.end, tok.start);
    const closing = isOp(tok, ...CLOSERS) ? 1 : 0;
    // Inside brackets, one level per open bracket (a closing one back at its opening line's); else one past the tag.
    const level = brackets.length - closing;
    const sep = original.includes("\n")
      ? eol + indent(depth + (level > 0 ? level : 1 - closing))
      : prev
        ? separator(prev, prevUnary, before, tok, brackets)
        : " ";
    out += sep + text.slice(tok.start, tok.end);
    prevUnary = unaryAt(tok, prev, before);
    if (isOp(tok, ...OPENERS)) brackets.push(tok.value);
    else if (closing) brackets.pop();
    before = prev;
    prev = tok;
  }
  out += text.slice(prev!.end, u.close.start).includes("\n") ? eol + indent(depth) : " ";
  const open = text.slice(u.open.start, u.open.end);
  const close = text.slice(u.close.start, u.close.end);
  const again = lex(open + out + close).tokens;
  const same =
    again.length === u.inner.length + 3 && u.inner.every((t, i) => again[i + 1].type === t.type && again[i + 1].value === t.value);
  return same ? out : null;
}

const isBlank = (c: string) => c === " " || c === "\t";

/** The canonical layout's edits for `doc` (whose parse has no errors), each one region of whitespace. */
export function proposeLayout(doc: TemplateDocument, options: LayoutOptions): LayoutEdit[] {
  const text = doc.text;
  const { units, gaps } = unitsOf(doc.tokens, text.length);
  const depth = depths(doc.template, units, gaps);
  const unitIndent = options.useTabs ? "\t" : " ".repeat(options.indentWidth);
  const indent = (n: number) => unitIndent.repeat(n);
  // New line breaks are written as the template writes its first one (engines differ on whether `\r\n` is trimmed).
  const firstBreak = text.indexOf("\n");
  const eol = firstBreak > 0 && text[firstBreak - 1] === "\r" ? "\r\n" : "\n";
  const edits: LayoutEdit[] = [];
  gaps.forEach((g, gi) => {
    const next = g.after;
    // A statement beside another tag, only blanks between: its own line.
    let blanksOnly = true;
    for (let p = g.start; p < g.end && blanksOnly; p++) blanksOnly = isBlank(text[p]);
    const statement = (u: Unit | null) => u !== null && u.kind !== "variable";
    if (next && g.before && blanksOnly && (statement(g.before) || statement(next)))
      edits.push({ start: g.start, end: g.end, newText: eol + indent(depth.unit[gi]), kind: "split", gap: gi });
    else
      for (let line = g.start; line <= g.end; line++) {
        if (!(line === 0 || (line > g.start && text[line - 1] === "\n"))) continue;
        let first = line;
        while (first < g.end && isBlank(text[first])) first++;
        if (first < g.end && (text[first] === "\n" || text[first] === "\r")) continue;
        if (first === g.end && !next) continue;
        const want = indent(first < g.end ? depth.gap[gi] : depth.unit[gi]);
        if (text.slice(line, first) !== want) edits.push({ start: line, end: first, newText: want, kind: "indent", gap: gi });
      }
    if (next && (next.kind === "variable" || next.kind === "block")) {
      const inner = respaced(text, next, depth.unit[gi], indent, eol);
      if (inner !== null && inner !== text.slice(next.open.end, next.close.start))
        edits.push({ start: next.open.end, end: next.close.start, newText: inner, kind: "spacing", gap: -1 });
    }
  });
  return edits;
}
