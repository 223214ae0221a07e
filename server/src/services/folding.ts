// Folding: every block statement from its opening tag to the line before its end tag (each `elif`
// / `else` section folds on its own), and comments that span lines.
import type { FoldingRange, Span, TemplateDocument } from "../document";
import type * as A from "../parser";
import { walk } from "../parser";

export function getFoldingRanges(doc: TemplateDocument): FoldingRange[] {
  const ranges: FoldingRange[] = [];
  const line = (offset: number) => doc.lines.lineOf(offset);
  /** Folds the section starting at `from` up to the tag at `to` (which stays visible), or to the end of an unclosed block. */
  const section = (from: Span, to: Span | null, blockEnd: number) => {
    const startLine = line(from.start);
    const endLine = to ? line(to.start) - 1 : line(blockEnd);
    if (endLine > startLine) ranges.push({ startLine, endLine });
  };
  walk(doc.template, (n) => {
    if (!("openTag" in n)) return;
    for (const [from, to] of sections(n)) section(from, to, n.end);
  });
  for (const c of doc.template.comments) {
    const startLine = line(c.start);
    const endLine = line(c.end);
    if (endLine > startLine) ranges.push({ startLine, endLine, kind: "comment" });
  }
  return ranges.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
}

/** The tags that divide a block: opening, `elif`s, `else`, end (null when unclosed). */
function sections(n: A.Stmt & A.Block): [Span, Span | null][] {
  const tags: Span[] = [n.openTag];
  if (n.kind === "If") tags.push(...n.branches.slice(1).map((b) => b.tag));
  if ((n.kind === "If" || n.kind === "For") && n.elseTag) tags.push(n.elseTag);
  return tags.map((t, i) => [t, i + 1 < tags.length ? tags[i + 1] : n.endTag]);
}
