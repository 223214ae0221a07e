// A template claims the conversations Jinja2 renders it with: one written for string content does not
// claim typed content, so what the engines do with typed content is no problem of that template. The
// findings that concern only the scenarios Jinja2 itself refuses are kept out of the Problems view
// (chatTemplate.diagnostics.unsupportedScenarios brings them back); the preview still shows those renders.

/** The part of a finding this needs: its code, severity and the sample scenarios it was seen in. */
interface ScenarioFinding {
  code: string;
  severity: string;
  scenarios: readonly string[];
}

/** The scenarios the reference (Jinja2) throws on, when it renders others: those the template does not claim. */
export function unsupportedScenarios(findings: readonly ScenarioFinding[]): Set<string> {
  const refused = new Set<string>();
  for (const f of findings) {
    // An error-severity jinja2/throws is the reference throwing on every scenario: the template serves nothing, report it.
    const referenceThrows = f.code === "jinja2/throws" && f.severity !== "error";
    if (referenceThrows || f.code.endsWith("/renders-where-jinja2-throws")) for (const s of f.scenarios) refused.add(s);
  }
  return refused;
}

/** The findings about at least one scenario the template supports, or about no scenario (static rules hold for any input). */
export function aboutSupportedScenarios<F extends ScenarioFinding>(findings: readonly F[]): F[] {
  const refused = unsupportedScenarios(findings);
  return findings.filter((f) => f.scenarios.length === 0 || f.scenarios.some((s) => !refused.has(s)));
}
