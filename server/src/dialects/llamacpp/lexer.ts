// llama.cpp's lexer (common/jinja/lexer.cpp, lexer::tokenize) ported statement for statement, because
// its token stream decides what the engine accepts and how it groups: `1e3` is `1` then `e3`, `-1`
// after `(` is one number, `+`/`-` after a `}` are unary, `**` is two `*`. Text runs get their
// whitespace handling here (trim_blocks after `%}`/`#}`, lstrip_blocks before `{%`/`{#` only within a
// line — and, at offset 0, the quirk that drops a one-byte first character — and `-` stripping " \t\r\n").
// It works on the newline-normalised source (as the engine does) and maps positions back to the
// original text. C's isspace/isalnum are ASCII here: any non-ASCII character is neither, as each of its
// UTF-8 bytes is in the C locale.

export type TokenType =
  | "eof"
  | "text"
  | "numeric_literal"
  | "string_literal"
  | "identifier"
  | "equals"
  | "open_paren"
  | "close_paren"
  | "open_statement"
  | "close_statement"
  | "open_expression"
  | "close_expression"
  | "open_square_bracket"
  | "close_square_bracket"
  | "open_curly_bracket"
  | "close_curly_bracket"
  | "comma"
  | "dot"
  | "colon"
  | "pipe"
  | "call_operator"
  | "additive_binary_operator"
  | "multiplicative_binary_operator"
  | "comparison_binary_operator"
  | "unary_operator"
  | "comment";

/** token::type's order: the number messages such as "Unexpected token: * of type 22" print. */
export const TOKEN_TYPE_NUMBER: Readonly<Record<TokenType, number>> = Object.fromEntries(
  (
    [
      "eof",
      "text",
      "numeric_literal",
      "string_literal",
      "identifier",
      "equals",
      "open_paren",
      "close_paren",
      "open_statement",
      "close_statement",
      "open_expression",
      "close_expression",
      "open_square_bracket",
      "close_square_bracket",
      "open_curly_bracket",
      "close_curly_bracket",
      "comma",
      "dot",
      "colon",
      "pipe",
      "call_operator",
      "additive_binary_operator",
      "multiplicative_binary_operator",
      "comparison_binary_operator",
      "unary_operator",
      "comment",
    ] as const
  ).map((t, i) => [t, i]),
) as Record<TokenType, number>;

export interface Token {
  t: TokenType;
  value: string;
  /** Offsets into the original source: where the token (for text: the run) starts and ends. */
  start: number;
  end: number;
}

export class LexError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(`lexer: ${message}`);
  }
}

const MAPPING: readonly [string, TokenType][] = [
  ["{%-", "open_statement"],
  ["-%}", "close_statement"],
  ["{{-", "open_expression"],
  ["-}}", "close_expression"],
  ["{%", "open_statement"],
  ["%}", "close_statement"],
  ["{{", "open_expression"],
  ["}}", "close_expression"],
  ["(", "open_paren"],
  [")", "close_paren"],
  ["{", "open_curly_bracket"],
  ["}", "close_curly_bracket"],
  ["[", "open_square_bracket"],
  ["]", "close_square_bracket"],
  [",", "comma"],
  [".", "dot"],
  [":", "colon"],
  ["|", "pipe"],
  ["<=", "comparison_binary_operator"],
  [">=", "comparison_binary_operator"],
  ["==", "comparison_binary_operator"],
  ["!=", "comparison_binary_operator"],
  ["<", "comparison_binary_operator"],
  [">", "comparison_binary_operator"],
  ["+", "additive_binary_operator"],
  ["-", "additive_binary_operator"],
  ["~", "additive_binary_operator"],
  ["*", "multiplicative_binary_operator"],
  ["/", "multiplicative_binary_operator"],
  ["%", "multiplicative_binary_operator"],
  ["=", "equals"],
];

const ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", "\\": "\\", "'": "'", '"': '"' };

const isSpace = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\v" || c === "\f" || c === "\r";
const isDigit = (c: string) => c >= "0" && c <= "9" && c.length === 1;
const isWord = (c: string) => /^[A-Za-z0-9_]$/.test(c);
const DASH_STRIP = " \t\r\n";

/**
 * The source as the engine lexes it ("\r\n" and "\r" → "\n", one final "\n" dropped) and where each character came
 * from: itself, in a source without "\r" (a table of 10 million places was 120 MB of a 10 MB template's render).
 */
function normalise(source: string): { src: string; origin: (i: number) => number } {
  if (!source.includes("\r")) {
    const src = source.endsWith("\n") ? source.slice(0, -1) : source;
    // the end of what is lexed is the end of the source (past a dropped final "\n")
    return { src, origin: (i) => (i < src.length ? i : source.length) };
  }
  let src = "";
  const origin: number[] = [];
  for (let i = 0; i < source.length; i++) {
    origin.push(i);
    if (source[i] === "\r") {
      src += "\n";
      if (source[i + 1] === "\n") i++;
    } else src += source[i];
  }
  origin.push(source.length);
  // lexer.cpp tests the original's last byte, so a final lone "\r" stays (as "\n").
  if (source.endsWith("\n")) {
    src = src.slice(0, -1);
    origin.splice(src.length, 1);
  }
  return { src, origin: (i) => origin[i] };
}

export function tokenize(source: string): Token[] {
  return [...tokens(source)];
}

/** The tokens one by one, as a parser reads them (TokenWindow): the engine's lexer, which lexes all before it parses, throws the same LexError. */
export function* tokens(source: string): Generator<Token, void, undefined> {
  if (source === "") return;
  const { src, origin } = normalise(source);
  const at = (i: number) => origin(Math.min(i, src.length));
  let pos = 0;
  let curly = 0;
  let lastToken: TokenType | null = null;
  const token = (t: TokenType, value: string, from: number, to = pos): Token => {
    lastToken = t;
    return { t, value, start: at(from), end: at(to) };
  };
  const last = () => lastToken;
  const nextIs = (chars: string, n = 1) => pos + n < src.length && chars.includes(src[pos + n]);

  // At the end, std::string reads "\0": a string literal left open swallows it and overruns.
  const consumeWhile = (pred: (c: string) => boolean): string => {
    let s = "";
    for (let c = src[pos] ?? "\0"; pred(c); c = src[pos] ?? "\0") {
      if (c === "\\") {
        pos++;
        if (pos >= src.length) throw new LexError("unexpected end of input after escape character", at(pos));
        const e = src[pos++];
        if (!Object.hasOwn(ESCAPES, e)) throw new LexError(`unknown escape character \\${firstByte(e)}`, at(pos));
        s += ESCAPES[e];
        continue;
      }
      s += c;
      pos++;
      if (pos > src.length) throw new LexError("unexpected end of input during consume_while", at(src.length));
    }
    return s;
  };
  const consumeNumeric = (): string => {
    let num = consumeWhile(isDigit);
    if (src[pos] === "." && pos + 1 < src.length && isDigit(src[pos + 1])) {
      pos++;
      num += "." + consumeWhile(isDigit);
    }
    return num;
  };

  while (pos < src.length) {
    const lastType = last() ?? "close_statement";
    if (lastType === "close_statement" || lastType === "close_expression" || lastType === "comment") {
      const start = pos;
      const c0 = src[pos - 3];
      const c1 = src[pos - 2];
      const c2 = src[pos - 1];
      const rstripBlock = pos > 3 && c0 === "-" && (c1 === "%" || c1 === "}" || c1 === "#") && c2 === "}";
      const canRemoveNewline = pos > 3 && (c1 === "#" || c1 === "%" || c1 === "-") && c2 === "}";
      let end = start;
      while (pos < src.length && !(src[pos] === "{" && nextIs("%{#"))) end = ++pos;
      if (src[pos] === "{" && nextIs("%#-")) {
        // lstrip_blocks; `current == 1` is byte 1 of the source: a multi-byte first character stops the scan first.
        for (let current = end; current > start; current--) {
          if (current === 1 && src.charCodeAt(0) < 0x80) {
            end = 0;
            break;
          }
          const c = src[current - 1];
          if (c === "\n") {
            end = current;
            break;
          }
          if (!isSpace(c)) break;
        }
      }
      let text = src.slice(start, end);
      if (canRemoveNewline && text.startsWith("\n")) text = text.slice(1);
      if (rstripBlock) text = stripStart(text);
      if (src[pos] === "{" && nextIs("{%#") && nextIs("-", 2)) text = stripEnd(text);
      if (text !== "") {
        yield token("text", text, start);
        continue;
      }
    }
    if (src[pos] === "{" && nextIs("#")) {
      const start = pos;
      pos += 2;
      let comment = "";
      while (!(src[pos] === "#" && nextIs("}"))) {
        if (pos + 2 >= src.length) throw new LexError("missing end of comment tag", at(pos));
        comment += src[pos++];
      }
      pos += 2;
      yield token("comment", comment, start);
      continue;
    }
    if (src[pos] === "-" && (lastType === "open_expression" || lastType === "open_statement")) {
      pos++;
      if (pos >= src.length) break;
    }
    consumeWhile(isSpace);
    if (pos >= src.length) break;
    const ch = src[pos];
    const closing = ch === "-" && nextIs("%}");
    if (!closing && (ch === "-" || ch === "+")) {
      const start = pos;
      const prev = last() ?? "eof";
      if (prev === "text" || prev === "eof") throw new LexError(`unexpected character: ${ch}`, at(pos));
      if (!["identifier", "numeric_literal", "string_literal", "close_paren", "close_square_bracket"].includes(prev)) {
        pos++;
        const num = consumeNumeric();
        yield token(num === "" ? "unary_operator" : "numeric_literal", ch + num, start);
        continue;
      }
    }
    const matched = MAPPING.find(([seq]) => !(seq === "}}" && curly !== 0) && src.startsWith(seq, pos));
    if (matched) {
      const [seq, t] = matched;
      const start = pos;
      pos += seq.length;
      yield token(t, seq, start);
      if (t === "open_expression") curly = 0;
      else if (t === "open_curly_bracket") curly++;
      else if (t === "close_curly_bracket") curly--;
      continue;
    }
    if (ch === "'" || ch === '"') {
      const start = pos++;
      const s = consumeWhile((c) => c !== ch);
      pos++;
      yield token("string_literal", s, start);
      continue;
    }
    if (isDigit(ch)) {
      const start = pos;
      yield token("numeric_literal", consumeNumeric(), start);
      continue;
    }
    if (isWord(ch)) {
      const start = pos;
      yield token("identifier", consumeWhile(isWord), start);
      continue;
    }
    throw new LexError(`unexpected character: ${firstByte(ch)}`, at(pos));
  }
}

/** The engine quotes the byte it choked on; a non-ASCII character's first byte alone decodes to U+FFFD. */
function firstByte(c: string): string {
  return c.charCodeAt(0) < 0x80 ? c : "\ufffd";
}

function stripStart(s: string): string {
  let i = 0;
  while (i < s.length && DASH_STRIP.includes(s[i])) i++;
  return s.slice(i);
}

function stripEnd(s: string): string {
  let i = s.length;
  while (i > 0 && DASH_STRIP.includes(s[i - 1])) i--;
  return s.slice(0, i);
}
