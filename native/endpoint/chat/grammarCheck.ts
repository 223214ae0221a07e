// A GBNF grammar's size, nesting, alternatives and repetition bounds, checked before llama.cpp parses it:
// a scan that skips literals, character classes and comments, as llama.cpp's parser reads them.
import {
  MAX_CONSTRAINT_ALTERNATIVES,
  MAX_CONSTRAINT_CHARS,
  MAX_CONSTRAINT_EXPANSION,
  MAX_CONSTRAINT_NESTING,
  MAX_CONSTRAINT_REPETITION,
} from "./constraintLimits";
import { badRequest, type FieldPath } from "../http/errors";

/**
 * The `{m}`, `{m,}` or `{m,n}` at `at` (in a grammar or a regex): the offset past it, or what is wrong with its
 * bounds; undefined when it is no repetition (llama.cpp says what is wrong then).
 */
export function repetitionAt(text: string, at: number): { end: number; copies: number; problem?: string } | undefined {
  const m = /^\{\s*(\d+)\s*(,\s*(\d*)\s*)?\}/.exec(text.slice(at, at + 64));
  if (!m) return undefined;
  const min = Number(m[1]);
  // {m,} is m copies and a star: only m is written out
  const max = m[2] === undefined ? min : m[3] === "" ? undefined : Number(m[3]);
  const end = at + m[0].length;
  const copies = Math.max(min, max ?? min);
  if (copies > MAX_CONSTRAINT_REPETITION)
    return { end, copies, problem: `a repetition of ${copies} is more than the limit of ${MAX_CONSTRAINT_REPETITION}` };
  if (max !== undefined && min > max) return { end, copies, problem: `a repetition's minimum ${min} is above its maximum ${max}` };
  return { end, copies };
}

/** `line L, column C` of an offset. */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  return `line ${before.split("\n").length}, column ${offset - before.lastIndexOf("\n")}`;
}

/** The offset past a `"…"` literal or `[…]` class opened at `at` (escapes skipped). */
function skipDelimited(text: string, at: number, close: string): number {
  let i = at + 1;
  while (i < text.length && text[i] !== close) i += text[i] === "\\" ? 2 : 1;
  return i + 1;
}

/** Throws a 400 naming `path` and the place in the grammar where it passes a limit. */
export function checkGrammar(text: string, path: FieldPath): void {
  if (text.length > MAX_CONSTRAINT_CHARS)
    throw badRequest(`has ${text.length} characters, more than the limit of ${MAX_CONSTRAINT_CHARS}`, path);
  const refuse = (what: string, at: number) => badRequest(`${what} at ${lineColumn(text, at)}`, path);
  let depth = 0;
  let alternatives = 0;
  // llama.cpp copies a repeated literal or class into its rule once per repetition (a group or a rule is
  // copied as one reference): what the repetitions add, in characters of the element they copy
  let element = 0;
  let expanded = 0;
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (c === '"' || c === "[") {
      const end = skipDelimited(text, i, c === '"' ? '"' : "]");
      element = end - i;
      i = end;
      continue;
    }
    if (c === "#") {
      const eol = text.indexOf("\n", i);
      i = eol < 0 ? text.length : eol;
      continue;
    }
    if (c === "(" && ++depth > MAX_CONSTRAINT_NESTING) throw refuse(`parentheses nest deeper than ${MAX_CONSTRAINT_NESTING} levels`, i);
    if (c === ")") depth = Math.max(0, depth - 1);
    if (c === "|" && ++alternatives > MAX_CONSTRAINT_ALTERNATIVES)
      throw refuse(`more than ${MAX_CONSTRAINT_ALTERNATIVES} alternatives ('|')`, i);
    const r = c === "{" ? repetitionAt(text, i) : undefined;
    if (r?.problem) throw refuse(r.problem, i);
    if (r && (expanded += element * r.copies) > MAX_CONSTRAINT_EXPANSION)
      throw refuse(`repetitions copy more than ${MAX_CONSTRAINT_EXPANSION} characters`, i);
    if (r) {
      i = r.end;
      continue;
    }
    if (c === ")" || /[\w-]/.test(c)) element = 1;
    i++;
  }
}
