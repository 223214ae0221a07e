// Editor features run on every keystroke, on half-typed templates: none may throw, and every range
// they return must lie inside the text. Checked on the real corpus, whole and cut off mid-way.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { getLanguageService } from "../../../server/src/services/languageService";
import type { Span } from "../../../server/src/document/types";
import { corpusDir } from "../../helpers/corpus";

const ls = getLanguageService();

function checkSpans(text: string, spans: Span[], what: string): void {
  for (const s of spans)
    assert.ok(0 <= s.start && s.start <= s.end && s.end <= text.length, `${what}: span ${JSON.stringify(s)} outside the text`);
}

function exercise(text: string, step: number): void {
  const doc = ls.parseTemplate(text);
  checkSpans(text, ls.getSemanticTokens(doc), "semantic tokens");
  const flat = (xs: ReturnType<typeof ls.findDocumentSymbols>): Span[] => xs.flatMap((s) => [s.span, s.selectionSpan, ...flat(s.children)]);
  checkSpans(text, flat(ls.findDocumentSymbols(doc)), "symbols");
  for (const r of ls.getFoldingRanges(doc)) assert.ok(r.startLine < r.endLine && r.endLine < doc.lines.lineCount);
  for (let offset = 0; offset <= text.length; offset += step) {
    const h = ls.doHover(doc, offset);
    if (h) checkSpans(text, [h.span], `hover at ${offset}`);
    checkSpans(
      text,
      ls.doComplete(doc, offset).map((c) => c.span),
      `completion at ${offset}`,
    );
    const d = ls.findDefinition(doc, offset);
    if (d) checkSpans(text, [d.origin, d.span, d.selectionSpan], `definition at ${offset}`);
    checkSpans(text, ls.findReferences(doc, offset) ?? [], `references at ${offset}`);
    const rename = ls.prepareRename(doc, offset);
    if (!("refused" in rename)) checkSpans(text, [rename.span], `prepare rename at ${offset}`);
    for (const s of ls.getSignatureHelp(doc, offset)?.signatures ?? [])
      for (const p of s.parameters) assert.ok(0 <= p.label[0] && p.label[0] < p.label[1] && p.label[1] <= s.label.length, s.label);
  }
}

describe("editor features never throw", () => {
  const dir = corpusDir("templates");
  const files = readdirSync(dir).filter((f) => f.endsWith(".jinja"));
  for (const f of files) {
    it(f, () => {
      const text = readFileSync(`${dir}/${f}`, "utf8");
      exercise(text, 23);
      // Cut inside a tag, as while typing: unclosed blocks, tags and strings.
      for (const cut of [0.3, 0.7]) exercise(text.slice(0, Math.floor(text.length * cut)), 41);
    });
  }
});
