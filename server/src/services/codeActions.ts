// Quick fixes for the engine diagnostics in a range: each one a verified rewrite (analysis/fixes)
// with the diagnostics it resolves — one action for a rewrite several diagnostics share.
import { BUILTIN_SCENARIOS, dialectsOf, engineFindings, quickFixesFor, type TextEdit, toDiagnostic } from "../analysis";
import type { Diagnostic, Span, TemplateDocument } from "../document";
import type { ValidationOptions } from "./diagnostics";

export interface CodeAction {
  title: string;
  kind: "quickfix";
  edits: TextEdit[];
  diagnostics: Diagnostic[];
}

export function getCodeActions(doc: TemplateDocument, range: Span, options: ValidationOptions): CodeAction[] {
  const scenarios = options.scenarios ?? BUILTIN_SCENARIOS;
  const findings = engineFindings(doc, dialectsOf(options.engines, options.llamaServerArgs), scenarios, {
    nullToolsProbe: options.nullToolsProbe ?? true,
  });
  const byEdit = new Map<string, CodeAction>();
  for (const f of findings) {
    if (f.end < range.start || f.start > range.end) continue;
    for (const fix of quickFixesFor(doc, f, scenarios)) {
      const key = JSON.stringify(fix.edits);
      const seen = byEdit.get(key);
      if (seen) seen.diagnostics.push(toDiagnostic(f, scenarios.length));
      else byEdit.set(key, { title: fix.title, kind: "quickfix", edits: fix.edits, diagnostics: [toDiagnostic(f, scenarios.length)] });
    }
  }
  return [...byEdit.values()];
}
