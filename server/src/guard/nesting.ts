// How deeply a template and its input nest. Our parser and our conversion of the input recurse on a stack
// smaller than llama.cpp's, so the guard refuses what nests past them, with where it does: for a template,
// brackets and block tags counted on llama.cpp's tokens (its lexer does not recurse, its parser does).
import { tokenize } from "../dialects";

const OPENS = new Set(["open_paren", "open_square_bracket", "open_curly_bracket"]);
const CLOSES = new Set(["close_paren", "close_square_bracket", "close_curly_bracket"]);
const BLOCKS = new Set(["if", "for", "macro", "call", "filter", "generation"]);

/** The offset of the first token at the deepest nesting; 0 when the text does not lex. */
export function deepestPoint(source: string): number {
  let tokens;
  try {
    tokens = tokenize(source);
  } catch {
    return 0;
  }
  let depth = 0;
  let max = -1;
  let at = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const tag = tokens[i - 1]?.t === "open_statement" && t.t === "identifier" ? t.value : null;
    if (OPENS.has(t.t) || (tag !== null && BLOCKS.has(tag))) depth++;
    else if (CLOSES.has(t.t) || tag?.startsWith("end")) depth--;
    if (depth > max) [max, at] = [depth, t.start];
  }
  return at;
}

/** The deepest nesting of arrays and objects in JSON text, read without recursion. */
export function jsonDepth(json: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") max = Math.max(max, ++depth);
    else if (c === "]" || c === "}") depth--;
  }
  return max;
}
