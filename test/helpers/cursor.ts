// Inline fixtures for position-based features: `‸` marks the cursor and is removed from the text.
import { TemplateDocument } from "../../server/src/document/document";

export const CURSOR = "‸";

export function atCursor(src: string): { doc: TemplateDocument; offset: number } {
  const offset = src.indexOf(CURSOR);
  if (offset < 0 || src.indexOf(CURSOR, offset + 1) >= 0) throw new Error(`fixture needs exactly one ${CURSOR}: ${src}`);
  return { doc: new TemplateDocument(src.slice(0, offset) + src.slice(offset + 1)), offset };
}

/** The source text a span covers. */
export function textOf(doc: TemplateDocument, span: { start: number; end: number }): string {
  return doc.text.slice(span.start, span.end);
}
