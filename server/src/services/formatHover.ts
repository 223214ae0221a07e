// Why Format left part of a line as it is: after a Format Document or Format Selection, hovering a line the
// formatter would have changed says what the proof found (the whitespace is output, or which engine and
// scenario would render differently), so an unindented line is not mistaken for a formatter bug.
import type { Hover, TemplateDocument } from "../document";
import type { LeftAlone } from "./format";

const PREFIX = "left as it is: ";

/** The hover for the line at `offset`, when the last format of this exact text left something on it; else null. */
export function leftAloneHover(doc: TemplateDocument, leftAlone: readonly LeftAlone[], offset: number): Hover | null {
  const line = doc.lines.lineOf(offset);
  const here = leftAlone.filter((l) => doc.lines.lineOf(l.start) === line);
  if (here.length === 0) return null;
  const reasons = [...new Set(here.map((l) => (l.reason.startsWith(PREFIX) ? l.reason.slice(PREFIX.length) : l.reason)))];
  const what = here.length === 1 ? "this line's layout" : `${here.length} layout changes on this line`;
  const start = doc.lines.offsetAt({ line, character: 0 });
  let end = doc.lines.offsetAt({ line: line + 1, character: 0 });
  while (end > start && (doc.text[end - 1] === "\n" || doc.text[end - 1] === "\r")) end--;
  return {
    contents: `**Format** left ${what} as it is, because formatting would change the output:\n\n${reasons.map((r) => `- ${r}`).join("\n")}`,
    span: { start, end },
  };
}
