// `diagnostics: {engines, maxSeverity}`: what the editor would underline for those engines is at most
// that severe. The same validation as the language server and `chat-template check`.
import type { TemplateDocument } from "../document";
import { validate } from "../services";
import type { Failure } from "./failure";
import { SEVERITIES, type CaseExpectations } from "./testFile";

/** The most that a failure lists; the rest are counted. */
const SHOWN = 10;

export function checkDiagnostics(doc: TemplateDocument, ex: NonNullable<CaseExpectations["diagnostics"]>): Failure[] {
  const limit = SEVERITIES.indexOf(ex.maxSeverity);
  const over = validate(doc, { engines: ex.engines }).filter((d) => SEVERITIES.indexOf(d.severity) < limit);
  if (!over.length) return [];
  const worst = SEVERITIES.find((s) => over.some((d) => d.severity === s));
  const lines = over.slice(0, SHOWN).map((d) => {
    const p = doc.lines.positionAt(d.start);
    return `${p.line + 1}:${p.character + 1} ${d.severity} ${d.code}: ${d.message}`;
  });
  if (over.length > SHOWN) lines.push(`… and ${over.length - SHOWN} more`);
  return [{ expectation: "diagnostics.maxSeverity", expected: ex.maxSeverity, seen: worst, detail: lines.join("\n") }];
}
