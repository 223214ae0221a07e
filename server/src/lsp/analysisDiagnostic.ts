// The one diagnostic a document gets when its rendering analyses could not finish (analysisWorker.ts): which
// limit stopped them, at the statement the template's render was running then ("… at line N"), or on the first
// line when the analysis process reported no position of this document.
import type { Diagnostic, Span, TemplateDocument } from "../document";
import type { AnalysisFailure } from "./analysisWorker";

const CODE: Readonly<Record<AnalysisFailure["limit"], string>> = {
  time: "limit/analysis-time",
  memory: "limit/analysis-memory",
  crash: "analysis/crash",
  error: "analysis/error",
};

const SETTING: Readonly<Partial<Record<AnalysisFailure["limit"], string>>> = {
  time: " (setting chatTemplate.diagnostics.timeLimitMs)",
  memory: " (setting chatTemplate.diagnostics.memoryLimitMb)",
};

export function analysisFailureDiagnostic(doc: TemplateDocument, failure: AnalysisFailure): Diagnostic {
  const at = failure.at && within(doc, failure.at);
  const lineEnd = doc.text.search(/[\r\n]/);
  return {
    ...(at ?? { start: 0, end: lineEnd < 0 ? doc.text.length : lineEnd }),
    severity: "warning",
    code: CODE[failure.limit],
    engine: null,
    message:
      `Engine checks stopped: this template ${failure.message}${at ? ` at line ${doc.lines.lineOf(at.start) + 1}` : ""}` +
      `${SETTING[failure.limit] ?? ""}. Only syntax problems are shown; the checks run again after the next edit.`,
  };
}

/** The span, if it is one of this text: the position and the document are the same text's, but the report crossed threads and a pipe. */
function within(doc: TemplateDocument, s: Span): Span | null {
  return Number.isInteger(s.start) && Number.isInteger(s.end) && 0 <= s.start && s.start <= s.end && s.end <= doc.text.length ? s : null;
}
