// Where the cursor is in terms of tokens: which tag it is in, the word being typed and what comes
// before it. Completion works from tokens rather than from the AST because the text being typed
// (`{{ message.`) rarely parses; the lexer still tokenises everything before the cursor.
import type { Token } from "../parser";
import type { Span } from "../document";

export interface Cursor {
  offset: number;
  /** Index of the `{{` / `{%` token of the tag the cursor is in. */
  tagBegin: number;
  /** The name being typed (the cursor is inside it or right after it), or null. */
  word: Token | null;
  /** Index of the token before the word, or before the cursor when there is no word. */
  prev: number;
  /** What a completion replaces: the word, or an empty span at the cursor. */
  replace: Span;
}

/** Index of the last token that starts before `offset`, or -1. */
export function tokenBefore(tokens: readonly Token[], offset: number): number {
  let lo = 0;
  let hi = tokens.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid].start < offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

const TAG_BEGINS = new Set(["variable_begin", "block_begin"]);
const OUTSIDE = new Set(["text", "comment", "raw_begin", "raw_end", "eof"]);

/** The cursor inside a `{{ }}` or `{% %}` tag; null in template text, comments and string literals. */
export function cursorAt(tokens: readonly Token[], offset: number): Cursor | null {
  const i = tokenBefore(tokens, offset);
  if (i < 0) return null;
  const t = tokens[i];
  if (OUTSIDE.has(t.type)) return null;
  // A closed tag ends at its delimiter; the synthetic end of an unclosed tag is empty.
  if ((t.type === "variable_end" || t.type === "block_end") && t.end > t.start) return null;
  if (t.type === "string" && offset < t.end) return null;
  let tagBegin = i;
  while (tagBegin >= 0 && !TAG_BEGINS.has(tokens[tagBegin].type)) tagBegin--;
  if (tagBegin < 0) return null;
  const isWord = t.type === "name" && offset <= t.end;
  return {
    offset,
    tagBegin,
    word: isWord ? t : null,
    prev: isWord ? i - 1 : i,
    replace: isWord ? { start: t.start, end: t.end } : { start: offset, end: offset },
  };
}
