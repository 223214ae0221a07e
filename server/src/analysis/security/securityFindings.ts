// The security rule family (`security/…`): a template that reaches Python internals or runs code,
// loads files, hides text or instructions from its reader, or smuggles the conversation out. These
// hold whatever engine renders the template, so they carry no engine; quick fixes and `fix` leave
// a template with any of them alone (a rewrite must not make a payload portable).
import type { Diagnostic, TemplateDocument } from "../../document";
import { pythonReachFindings } from "./pythonReach";
import { textPayloadFindings } from "./textPayloads";
import { triggeredFindings } from "./triggeredRenders";

const overlaps = (a: Diagnostic, b: Diagnostic): boolean => a.start < b.end && b.start < a.end;
/** Codes for what is said to the model: one finding where the same text is seen statically and rendered. */
const SPOKEN = new Set(["security/prompt-injection", "security/gated-payload"]);

const cache = new WeakMap<TemplateDocument, Diagnostic[]>();

export function securityDiagnostics(doc: TemplateDocument): Diagnostic[] {
  let found = cache.get(doc);
  if (found) return found;
  const statics = [...pythonReachFindings(doc), ...textPayloadFindings(doc)];
  // keep the innermost of nested findings of one code (a literal inside an expression that folds to it)
  const inner = statics.filter(
    (d) =>
      !statics.some((o) => o !== d && o.code === d.code && o.start >= d.start && o.end <= d.end && (o.start > d.start || o.end < d.end)),
  );
  const reachesPython = inner.some((s) => s.code === "security/private-name" || s.code === "security/code-execution");
  const rendered = triggeredFindings(doc).filter(
    (d) =>
      !inner.some((s) => ((SPOKEN.has(s.code) && SPOKEN.has(d.code)) || s.code === d.code) && overlaps(s, d)) &&
      // names reached at run time matter where folding saw none: otherwise they repeat the static findings
      !(d.code === "security/private-name" && reachesPython),
  );
  found = [...inner, ...rendered].sort((a, b) => a.start - b.start || a.end - b.end);
  cache.set(doc, found);
  return found;
}

/** Whether automatic rewrites must leave the template alone. */
export function hasSecurityFindings(doc: TemplateDocument): boolean {
  return securityDiagnostics(doc).some((d) => d.severity === "error");
}
