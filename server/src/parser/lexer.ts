// Jinja2's lexer, reproduced on the original text so every token keeps its source offsets.
// Whitespace control follows jinja2/lexer.py (3.1): `-`/`+` signs, trim_blocks (one newline after
// a block or comment tag), lstrip_blocks (spaces before a block or comment tag at a line start),
// universal newlines, and the dropped trailing newline (keep_trailing_newline=False).
// It never throws: problems are collected and lexing resumes at the next sensible point.
import type { Comment, Span, TagEdge, TagType } from "./ast";
import { isNewlineChar, isPyWhitespace, newlineLength, normalizeNewlines } from "./pyText";
import { decodeStringBody } from "./stringEscapes";
import type { SyntaxProblem } from "./problems";

export interface LexOptions {
  trimBlocks: boolean;
  lstripBlocks: boolean;
  keepTrailingNewline: boolean;
}

/** How HF transformers configures Jinja2 for chat templates (and how llama.cpp and minja run them). */
export const chatTemplateLexOptions: LexOptions = { trimBlocks: true, lstripBlocks: true, keepTrailingNewline: false };

export type TokenType =
  | "text"
  | "variable_begin"
  | "variable_end"
  | "block_begin"
  | "block_end"
  | "raw_begin"
  | "raw_end"
  | "comment"
  | "name"
  | "string"
  | "integer"
  | "float"
  | "operator"
  | "eof";

export interface TextData {
  value: string;
  valueStart: number;
  valueEnd: number;
  before: TagEdge | null;
  after: TagEdge | null;
}

export interface Token extends Span {
  type: TokenType;
  /** name/operator: the text; string: decoded value; integer/float: source spelling; delimiters: the delimiter. */
  value: string;
  /** Whitespace-control sign of a delimiter token. */
  sign?: "-" | "+" | "";
  text?: TextData;
}

export interface LexResult {
  tokens: Token[];
  comments: Comment[];
  problems: SyntaxProblem[];
}

// jinja2.lexer.operators that are one character long; the two-character ones are in operatorAt.
const SINGLE_OPERATORS = "+-/*%~[](){}><=.:|,;";
const CLOSERS: Record<string, string> = { "(": ")", "[": "]", "{": "}" };
const BRACKETS = "()[]{}";
/** Delimiter spellings by sign, so tokens share these strings instead of slicing the source for each tag. */
type Spellings = { open: Record<TagEdge["sign"], string>; close: Record<TagEdge["sign"], string> };
const VARIABLE_DELIMITERS: Spellings = { open: { "": "{{", "-": "{{-", "+": "{{+" }, close: { "": "}}", "-": "-}}", "+": "+}}" } };
const BLOCK_DELIMITERS: Spellings = { open: { "": "{%", "-": "{%-", "+": "{%+" }, close: { "": "%}", "-": "-%}", "+": "+%}" } };

const INTEGER_RE = /0b(?:_?[01])+|0o(?:_?[0-7])+|0x(?:_?[\da-f])+|[1-9](?:_?\d)*|0(?:_?0)*/iy;
const FLOAT_RE = /(?:\d+_)*\d+(?:(?:\.(?:\d+_)*\d+)?e[+-]?(?:\d+_)*\d+|\.(?:\d+_)*\d+)/iy;
const NAME_RE = /[\p{ID_Start}_][\p{ID_Continue}]*/uy;
const RAW_BEGIN_RE = /\{%([-+]?)\s*raw\s*(?:-%\}|%\})/y;

/** The operator at `p` (longest match first, as Jinja2's regex alternation), or null. */
function operatorAt(src: string, p: number, c: number): string | null {
  const next = src.charCodeAt(p + 1);
  switch (c) {
    case 0x2f: // /
      if (next === 0x2f) return "//";
      break;
    case 0x2a: // *
      if (next === 0x2a) return "**";
      break;
    case 0x3d: // =
      if (next === 0x3d) return "==";
      break;
    case 0x21: // !
      if (next === 0x3d) return "!=";
      break;
    case 0x3e: // >
      if (next === 0x3d) return ">=";
      break;
    case 0x3c: // <
      if (next === 0x3d) return "<=";
      break;
  }
  return c < 0x80 && SINGLE_OPERATORS.includes(src[p]) ? src[p] : null;
}

function isAsciiNameChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || (c >= 0x30 && c <= 0x39);
}

/** End of the name starting at `p` (`p` itself when there is none); ASCII names skip the Unicode regex. */
function scanName(src: string, p: number, c: number): number {
  if (c < 0x80 && (!isAsciiNameChar(c) || c <= 0x39)) return p;
  let e = p + 1;
  if (c < 0x80) {
    while (e < src.length && isAsciiNameChar(src.charCodeAt(e))) e++;
    if (e >= src.length || src.charCodeAt(e) < 0x80) return e;
  }
  const name = matchAt(NAME_RE, src, p);
  return name ? p + name.length : p;
}

/** Cheap pre-check for RAW_BEGIN_RE at a `{%`: the first word must start with `r`. */
function mayBeRaw(src: string, tagStart: number): boolean {
  let p = tagStart + 2;
  const sign = src.charCodeAt(p);
  if (sign === 0x2d || sign === 0x2b) p++;
  let c = src.charCodeAt(p);
  while (c === 0x20 || (c >= 0x09 && c <= 0x0d)) c = src.charCodeAt(++p);
  return c === 0x72 || c > 0x7f;
}

function matchAt(re: RegExp, s: string, pos: number): string | null {
  re.lastIndex = pos;
  const m = re.exec(s);
  return m ? m[0] : null;
}

export class Lexer {
  /** The tokens lexed so far; a TokenWindow takes the ones its parser is done with off the front. */
  readonly tokens: Token[] = [];
  readonly comments: Comment[] = [];
  readonly problems: SyntaxProblem[] = [];
  private pos = 0;
  /** Jinja2's `line_starting`: the previous match ended with a newline (or we are at the start). */
  private lineStarting = true;
  private prevEdge: TagEdge | null = null;
  /** Where the value of the next text run may start (after whitespace a tag end consumed). */
  private valueStart = 0;
  private readonly limit: number;
  private ended = false;

  constructor(
    private readonly src: string,
    private readonly opts: LexOptions,
  ) {
    let limit = src.length;
    if (!opts.keepTrailingNewline && limit > 0) {
      if (src.endsWith("\r\n")) limit -= 2;
      else if (isNewlineChar(src.charCodeAt(limit - 1))) limit -= 1;
    }
    this.limit = limit;
  }

  run(): LexResult {
    while (this.step());
    return { tokens: this.tokens, comments: this.comments, problems: this.problems };
  }

  /** Lexes one tag and the text before it (or the text up to the end, or the end): false once the end is out. */
  step(): boolean {
    if (this.ended) return false;
    const src = this.src;
    if (this.pos >= this.limit) {
      this.tokens.push({ type: "eof", value: "", start: this.src.length, end: this.src.length });
      this.ended = true;
      return true;
    }
    const tagStart = this.findTagStart(this.pos);
    if (tagStart < 0) {
      this.emitText(this.limit, null);
      return true;
    }
    const kindChar = src[tagStart + 1];
    const rawBegin = kindChar === "%" && mayBeRaw(src, tagStart) ? matchAt(RAW_BEGIN_RE, src, tagStart) : null;
    const signChar = src[tagStart + 2];
    const sign = signChar === "-" || signChar === "+" ? signChar : "";
    const type: TagType = rawBegin ? "raw_begin" : kindChar === "{" ? "variable" : kindChar === "%" ? "block" : "comment";
    const edge: TagEdge = { type, sign, start: tagStart, end: tagStart + 2 + sign.length };
    this.emitText(tagStart, edge);
    if (rawBegin) this.lexRaw(tagStart, rawBegin, sign);
    else if (type === "comment") this.lexComment(edge);
    else this.lexTag(edge);
    return true;
  }

  private findTagStart(from: number): number {
    const src = this.src;
    for (let i = src.indexOf("{", from); i >= 0 && i < this.limit - 1; i = src.indexOf("{", i + 1)) {
      const c = src[i + 1];
      if (c === "{" || c === "%" || c === "#") return i;
    }
    return -1;
  }

  /** Emits the text run [pos, end) with Jinja2's stripping towards the tag `after`. */
  private emitText(end: number, after: TagEdge | null): void {
    const rawStart = this.pos;
    const vStart = Math.min(this.valueStart, end);
    let vEnd = end;
    if (after) {
      if (after.sign === "-") {
        while (vEnd > vStart && isPyWhitespace(this.src.charCodeAt(vEnd - 1))) vEnd--;
      } else if (after.sign !== "+" && this.opts.lstripBlocks && after.type !== "variable") {
        vEnd = this.lstrip(vStart, vEnd);
      }
    }
    if (end > rawStart) {
      const value = normalizeNewlines(this.src.slice(vStart, vEnd));
      this.tokens.push({
        type: "text",
        value,
        start: rawStart,
        end,
        text: { value, valueStart: vStart, valueEnd: vEnd, before: this.prevEdge, after },
      });
    }
    this.pos = end;
  }

  /** lstrip_blocks: drop the spaces between the last line start and the tag, if that is all there is. Returns the new end. */
  private lstrip(vStart: number, vEnd: number): number {
    let lineStart = vEnd;
    const src = this.src;
    while (lineStart > vStart) {
      const c = src.charCodeAt(lineStart - 1);
      if (c === 0x0a || c === 0x0d) break;
      if (!isPyWhitespace(c)) return vEnd;
      lineStart--;
    }
    if (lineStart === vStart && !this.lineStarting) return vEnd;
    return lineStart;
  }

  /** After a tag end: consume what its sign (or trim_blocks) swallows and record the edge. */
  private closeTag(edge: TagEdge, trims: boolean): void {
    let p = edge.end;
    if (edge.sign === "-") {
      while (p < this.limit && isPyWhitespace(this.src.charCodeAt(p))) p++;
    } else if (edge.sign === "" && trims && this.opts.trimBlocks) {
      p += newlineLength(this.src, p);
    }
    p = Math.min(p, this.limit);
    this.lineStarting = p > edge.end ? isNewlineChar(this.src.charCodeAt(p - 1)) : false;
    this.prevEdge = edge;
    this.valueStart = p;
    this.pos = edge.end;
  }

  private lexComment(open: TagEdge): void {
    const src = this.src;
    const bodyStart = open.end;
    const close = src.indexOf("#}", bodyStart);
    if (close < 0 || close + 2 > this.limit) {
      this.problems.push({
        start: open.start,
        end: open.end,
        code: "syntax/unterminated-comment",
        message: "Missing end of comment tag: '{#' is never closed by '#}'",
        severity: "error",
      });
      this.comments.push({ start: open.start, end: this.limit, text: src.slice(bodyStart, this.limit) });
      this.tokens.push({ type: "comment", value: src.slice(bodyStart, this.limit), start: open.start, end: this.limit });
      this.pos = this.valueStart = this.limit;
      return;
    }
    const prev = src[close - 1];
    const sign = close > bodyStart && (prev === "-" || prev === "+") ? prev : "";
    const end: TagEdge = { type: "comment", sign, start: close - sign.length, end: close + 2 };
    const text = src.slice(bodyStart, end.start);
    this.comments.push({ start: open.start, end: end.end, text });
    this.tokens.push({ type: "comment", value: text, start: open.start, end: end.end });
    this.closeTag(end, true);
  }

  private lexRaw(tagStart: number, beginText: string, sign: "-" | "+" | ""): void {
    const src = this.src;
    const beginEnd = tagStart + beginText.length;
    const beginEdge: TagEdge = {
      type: "raw_begin",
      sign: beginText.endsWith("-%}") ? "-" : "",
      start: beginEnd - (beginText.endsWith("-%}") ? 3 : 2),
      end: beginEnd,
    };
    this.tokens.push({ type: "raw_begin", value: beginText, sign, start: tagStart, end: beginEnd });
    // `{% raw %}` has no trim_blocks suffix in Jinja2's lexer; only `-%}` swallows what follows.
    this.closeTag(beginEdge, false);
    const endRe = /\{%([-+]?)\s*endraw\s*(\+%\}|-%\}|%\})/g;
    endRe.lastIndex = beginEnd;
    const m = endRe.exec(src);
    if (!m || m.index + m[0].length > this.limit) {
      this.problems.push({
        start: tagStart,
        end: beginEnd,
        code: "syntax/unclosed-raw",
        message: "Missing end of raw directive: '{% raw %}' is never closed by '{% endraw %}'",
        severity: "error",
      });
      this.emitText(this.limit, null);
      return;
    }
    const endSign = (m[1] || "") as "-" | "+" | "";
    const endTagEdge: TagEdge = { type: "raw_end", sign: endSign, start: m.index, end: m.index + 2 + endSign.length };
    this.emitText(m.index, endTagEdge);
    const closer = m[2];
    const closeSign = closer.startsWith("-") ? "-" : closer.startsWith("+") ? "+" : "";
    const tagEnd = m.index + m[0].length;
    this.tokens.push({ type: "raw_end", value: m[0], sign: endSign, start: m.index, end: tagEnd });
    this.closeTag({ type: "raw_end", sign: closeSign, start: tagEnd - closer.length, end: tagEnd }, true);
  }

  private lexTag(open: TagEdge): void {
    const beginType = open.type === "variable" ? "variable_begin" : "block_begin";
    const endType = open.type === "variable" ? "variable_end" : "block_end";
    const delimiters = open.type === "variable" ? VARIABLE_DELIMITERS : BLOCK_DELIMITERS;
    this.tokens.push({ type: beginType, value: delimiters.open[open.sign], sign: open.sign, start: open.start, end: open.end });
    const mark = this.tokens.length;
    const problemMark = this.problems.length;
    let end = this.lexTagBody(open, true);
    if (end === null) {
      // Unclosed brackets ran to the end of the template (Jinja2 would only say "unexpected end of
      // template"). Re-lex ignoring bracket balance so the tag ends at its delimiter; the parser
      // then reports the missing bracket where it belongs, and the rest of the file still parses.
      this.tokens.length = mark;
      this.problems.length = problemMark;
      end = this.lexTagBody(open, false);
      if (end === null) {
        const closer = open.type === "variable" ? "}}" : "%}";
        this.problems.push({
          start: open.start,
          end: open.end,
          code: "syntax/unclosed-tag",
          message: `Unexpected end of template: '${this.src.slice(open.start, open.start + 2)}' is never closed by '${closer}'`,
          severity: "error",
        });
        this.tokens.push({ type: endType, value: "", sign: "", start: this.pos, end: this.pos });
        this.prevEdge = null;
        this.lineStarting = false;
        this.valueStart = this.pos;
        return;
      }
    }
    this.tokens.push({ type: endType, value: delimiters.close[end.sign], sign: end.sign, start: end.start, end: end.end });
    this.closeTag(end, open.type === "block");
  }

  /** Lexes inside a tag; returns the closing edge, or null at the end of input / at a new tag start. */
  private lexTagBody(open: TagEdge, balance: boolean): TagEdge | null {
    const src = this.src;
    const isVar = open.type === "variable";
    const stack: { char: string; start: number }[] = [];
    let p = open.end;
    // Dispatch on the first character instead of trying each token regex in turn: tag bodies are
    // most of a template's bytes, and the token kinds have disjoint first characters.
    while (p < this.limit) {
      const c = src.charCodeAt(p);
      if (c <= 0x20 ? c >= 0x1c || (c >= 0x09 && c <= 0x0d) : c > 0x7f && isPyWhitespace(c)) {
        p++;
        continue;
      }
      if ((c === 0x7d || c === 0x25 || c === 0x2d || c === 0x2b) && (!balance || stack.length === 0)) {
        const close = this.matchTagEnd(p, isVar);
        if (close) return close;
      }
      // A new `{%` or `{#` can never continue an expression: treat the tag as unclosed there.
      if (c === 0x7b && (src[p + 1] === "%" || src[p + 1] === "#")) break;
      if (c >= 0x30 && c <= 0x39) {
        const num = src[p - 1] !== "." ? matchAt(FLOAT_RE, src, p) : null;
        const value = num ?? matchAt(INTEGER_RE, src, p)!;
        this.tokens.push({ type: num ? "float" : "integer", value, start: p, end: p + value.length });
        p += value.length;
        continue;
      }
      const nameEnd = scanName(src, p, c);
      if (nameEnd > p) {
        this.tokens.push({ type: "name", value: src.slice(p, nameEnd), start: p, end: nameEnd });
        p = nameEnd;
        continue;
      }
      if (c === 0x27 || c === 0x22) {
        p = this.lexString(p);
        continue;
      }
      const op = operatorAt(src, p, c);
      if (op) {
        if (balance && op.length === 1 && BRACKETS.includes(op)) this.balanceBracket(op, p, stack);
        this.tokens.push({ type: "operator", value: op, start: p, end: p + op.length });
        p += op.length;
        continue;
      }
      const cp = src.codePointAt(p)!;
      const len = cp > 0xffff ? 2 : 1;
      this.problems.push({
        start: p,
        end: p + len,
        code: "syntax/unexpected-char",
        message: `unexpected char ${pyRepr(String.fromCodePoint(cp))}`,
        severity: "error",
      });
      p += len;
    }
    this.pos = p;
    return null;
  }

  private balanceBracket(op: string, p: number, stack: { char: string; start: number }[]): void {
    if (op in CLOSERS) {
      stack.push({ char: op, start: p });
      return;
    }
    const top = stack.pop();
    if (!top) {
      this.problems.push({ start: p, end: p + 1, code: "syntax/unbalanced-bracket", message: `unexpected '${op}'`, severity: "error" });
    } else if (CLOSERS[top.char] !== op) {
      this.problems.push({
        start: p,
        end: p + 1,
        code: "syntax/unbalanced-bracket",
        message: `unexpected '${op}', expected '${CLOSERS[top.char]}'`,
        severity: "error",
        related: [{ start: top.start, end: top.start + 1, message: `'${top.char}' opened here` }],
      });
    }
  }

  private matchTagEnd(p: number, isVar: boolean): TagEdge | null {
    const src = this.src;
    const type: TagType = isVar ? "variable" : "block";
    const delim = isVar ? "}}" : "%}";
    if (src.startsWith(delim, p)) return { type, sign: "", start: p, end: p + 2 };
    if (src[p] === "-" && src.startsWith(delim, p + 1)) return { type, sign: "-", start: p, end: p + 3 };
    // Jinja2 has no `+}}`; `+%}` exists for blocks only.
    if (!isVar && src[p] === "+" && src.startsWith(delim, p + 1)) return { type, sign: "+", start: p, end: p + 3 };
    return null;
  }

  private lexString(p: number): number {
    const src = this.src;
    const quote = src.charCodeAt(p);
    let i = p + 1;
    let plain = true;
    for (let c = src.charCodeAt(i); i < this.limit && c !== quote; c = src.charCodeAt(i)) {
      if (c === 0x5c) {
        plain = false;
        i += 2;
      } else {
        if (c === 0x0d) plain = false;
        i++;
      }
    }
    if (i >= this.limit) {
      this.problems.push({
        start: p,
        end: p + 1,
        code: "syntax/unterminated-string",
        message: `unterminated string literal: no closing ${src[p]} before the end of the template`,
        severity: "error",
      });
      // Skip to the end of the line so the tag end can still be found.
      let e = p + 1;
      while (e < this.limit && !isNewlineChar(src.charCodeAt(e))) {
        if (src.startsWith("}}", e) || src.startsWith("%}", e)) break;
        e++;
      }
      this.tokens.push({ type: "string", value: src.slice(p + 1, e), start: p, end: e });
      return e;
    }
    const body = src.slice(p + 1, i);
    if (plain) {
      // No escape and no newline to normalise: the value is the body as written.
      this.tokens.push({ type: "string", value: body, start: p, end: i + 1 });
      return i + 1;
    }
    const { value, problems } = decodeStringBody(body);
    for (const pr of problems) {
      this.problems.push({
        start: p + 1 + pr.offset,
        end: p + 1 + pr.offset + pr.length,
        code: pr.jinjaRejects ? "syntax/invalid-escape" : "syntax/unresolved-escape",
        message: pr.message,
        severity: pr.jinjaRejects ? "error" : "warning",
      });
    }
    this.tokens.push({ type: "string", value, start: p, end: i + 1 });
    return i + 1;
  }
}

/** Python's repr() of a one-character string, as Jinja2's messages show it. */
function pyRepr(s: string): string {
  return s === "'" ? `"'"` : `'${s}'`;
}

export function lex(source: string, options: LexOptions = chatTemplateLexOptions): LexResult {
  return new Lexer(source, options).run();
}

export { normalizeNewlines };
