// Offsets of the language service <-> LSP ranges.
import type { Diagnostic as LspDiagnostic, Range } from "vscode-languageserver";
import { DiagnosticSeverity } from "vscode-languageserver";
import type { TemplateDocument } from "../document";
import type { Diagnostic, Span } from "../types";

export function toRange(doc: TemplateDocument, span: Span): Range {
  return { start: doc.lines.positionAt(span.start), end: doc.lines.positionAt(span.end) };
}

const SEVERITY: Record<Diagnostic["severity"], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function toLspDiagnostic(doc: TemplateDocument, uri: string, d: Diagnostic): LspDiagnostic {
  return {
    range: toRange(doc, d),
    severity: SEVERITY[d.severity],
    code: d.code,
    source: d.engine ? `chat-template (${d.engine})` : "chat-template",
    message: d.message,
    ...(d.related
      ? { relatedInformation: d.related.map((r) => ({ location: { uri, range: toRange(doc, r) }, message: r.message })) }
      : {}),
  };
}
