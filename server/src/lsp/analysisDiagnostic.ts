// The one diagnostic a document gets when its rendering analyses could not finish (analysisWorker.ts): which
// limit stopped them, on the first line, since the process that knew where it was is gone.
import type { Diagnostic, TemplateDocument } from "../document";
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
  const lineEnd = doc.text.search(/[\r\n]/);
  return {
    start: 0,
    end: lineEnd < 0 ? doc.text.length : lineEnd,
    severity: "warning",
    code: CODE[failure.limit],
    engine: null,
    message:
      `Engine checks stopped: this template ${failure.message}${SETTING[failure.limit] ?? ""}. ` +
      "Only syntax problems are shown; the checks run again after the next edit.",
  };
}
