// A JSON reader that keeps where each value is in the text, so one value can be replaced and every other
// byte of the file kept (JSON.parse forgets positions). Strict JSON (RFC 8259), as transformers writes it.
import { LineIndex } from "../parser";

export type JsonValue =
  | { kind: "string"; value: string; start: number; end: number }
  | { kind: "number" | "true" | "false" | "null"; start: number; end: number }
  | { kind: "array"; items: JsonValue[]; start: number; end: number }
  | { kind: "object"; members: { key: string; value: JsonValue }[]; start: number; end: number };

/** Malformed JSON, at a UTF-16 offset of the text (line and column are 1-based). */
export class JsonSyntaxError extends Error {
  readonly line: number;
  readonly column: number;
  constructor(
    message: string,
    text: string,
    readonly offset: number,
  ) {
    const p = new LineIndex(text).positionAt(offset);
    super(`${p.line + 1}:${p.character + 1}: ${message}`);
    this.line = p.line + 1;
    this.column = p.character + 1;
  }
}

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
// Deep enough for any tokenizer config; a deeper file is refused rather than overflowing the stack.
const MAX_DEPTH = 500;

export function parseJsonSpans(text: string): JsonValue {
  let i = 0;
  const fail = (message: string, at = i): never => {
    throw new JsonSyntaxError(message, text, at);
  };
  const skipSpace = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const found = (): string => (i < text.length ? `'${text[i]}'` : "the end of the file");

  function string(): JsonValue {
    const start = i++;
    let value = "";
    for (;;) {
      if (i >= text.length) fail("unterminated string", start);
      const c = text[i];
      if (c === '"') break;
      if (c < " ") fail("a control character in a string must be escaped");
      if (c !== "\\") {
        value += c;
        i++;
        continue;
      }
      const e = text[i + 1];
      if (e === "u") {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("\\u needs four hexadecimal digits");
        value += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else if (e !== undefined && e in ESCAPES) {
        value += ESCAPES[e];
        i += 2;
      } else fail(`unknown escape '\\${e ?? ""}'`);
    }
    i++;
    return { kind: "string", value, start, end: i };
  }

  function value(depth: number): JsonValue {
    if (depth > MAX_DEPTH) fail(`nested deeper than ${MAX_DEPTH}`);
    skipSpace();
    const start = i;
    const c = text[i];
    if (c === '"') return string();
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      i++;
      const members: { key: string; value: JsonValue }[] = [];
      const items: JsonValue[] = [];
      skipSpace();
      if (text[i] !== close) {
        for (;;) {
          if (c === "{") {
            skipSpace();
            if (text[i] !== '"') fail(`expected a member name in quotes, found ${found()}`);
            const key = (string() as { value: string }).value;
            skipSpace();
            if (text[i] !== ":") fail(`expected ':' after a member name, found ${found()}`);
            i++;
            members.push({ key, value: value(depth + 1) });
          } else items.push(value(depth + 1));
          skipSpace();
          if (text[i] === ",") {
            i++;
            continue;
          }
          if (text[i] === close) break;
          fail(`expected ',' or '${close}', found ${found()}`);
        }
      }
      i++;
      return c === "{" ? { kind: "object", members, start, end: i } : { kind: "array", items, start, end: i };
    }
    const word = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!word) fail(`expected a JSON value, found ${found()}`);
    i += word![0].length;
    const w = word![0];
    return { kind: w === "true" || w === "false" || w === "null" ? w : "number", start, end: i };
  }

  const root = value(0);
  skipSpace();
  if (i < text.length) fail(`unexpected ${found()} after the JSON value`);
  return root;
}
