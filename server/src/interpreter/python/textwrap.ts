// Python's textwrap.wrap as Jinja2's wordwrap filter calls it: expand_tabs=False,
// replace_whitespace=False, drop_whitespace=True, no indents, no max_lines (CPython 3.11's
// Lib/textwrap.py: the chunk regexes, _handle_long_word and _wrap_chunks, statement for statement).
// Lengths are in code points, as Python's len.
import { Fault } from "../errors";
import { codePoints, isPySpace, pyLen } from "./text";

const WS = "[\\t\\n\\x0b\\x0c\\r ]";
const NWS = "[^\\t\\n\\x0b\\x0c\\r ]";
const WORD = "[\\p{L}\\p{N}_]";
const WORD_PUNCT = "[\\p{L}\\p{N}_!\"'&.,?]";
const LETTER = "[\\p{L}_]";

/** TextWrapper.wordsep_re: whitespace runs, em-dashes between words, and words broken after their hyphens. */
const WORDSEP = new RegExp(
  `(${WS}+` +
    `|(?<=${WORD_PUNCT})-{2,}(?=${WORD})` +
    `|${NWS}+?(?:-(?:(?<=${LETTER}{2}-)|(?<=${LETTER}-${LETTER}-))(?=${LETTER}-?${LETTER})|(?=${WS}|$)|(?<=${WORD_PUNCT})(?=-{2,}${WORD})))`,
  "u",
);
/** TextWrapper.wordsep_simple_re (break_on_hyphens=False). */
const WORDSEP_SIMPLE = new RegExp(`(${WS}+)`, "u");

export interface WrapOptions {
  width: number;
  breakLongWords: boolean;
  breakOnHyphens: boolean;
}

const blank = (s: string): boolean => codePoints(s).every(isPySpace);

/** textwrap.wrap(text, width, …): the lines, without their line ends. */
export function wrap(text: string, o: WrapOptions): string[] {
  const chunks = text.split(o.breakOnHyphens ? WORDSEP : WORDSEP_SIMPLE).filter((c) => c !== "");
  if (o.width <= 0) throw Fault.value(`invalid width ${o.width} (must be > 0)`);
  chunks.reverse();
  const lines: string[] = [];
  const width = o.width;
  while (chunks.length) {
    const line: string[] = [];
    let len = 0;
    if (lines.length && blank(chunks[chunks.length - 1])) chunks.pop();
    while (chunks.length) {
      const l = pyLen(chunks[chunks.length - 1]);
      if (len + l > width) break;
      line.push(chunks.pop()!);
      len += l;
    }
    if (chunks.length && pyLen(chunks[chunks.length - 1]) > width) handleLongWord(chunks, line, len, width, o);
    if (line.length && blank(line[line.length - 1])) line.pop();
    if (line.length) lines.push(line.join(""));
  }
  return lines;
}

function handleLongWord(chunks: string[], line: string[], len: number, width: number, o: WrapOptions): void {
  const spaceLeft = width < 1 ? 1 : width - len;
  if (o.breakLongWords) {
    const chunk = codePoints(chunks[chunks.length - 1]);
    let end = spaceLeft;
    if (o.breakOnHyphens && chunk.length > spaceLeft) {
      // Break after the last hyphen that fits, if non-hyphens come before it.
      const hyphen = spaceLeft > 0 ? chunk.lastIndexOf("-", spaceLeft - 1) : -1;
      if (hyphen > 0 && chunk.slice(0, hyphen).some((c) => c !== "-")) end = hyphen + 1;
    }
    line.push(chunk.slice(0, end).join(""));
    chunks[chunks.length - 1] = chunk.slice(end).join("");
  } else if (!line.length) {
    line.push(chunks.pop()!);
  }
}
