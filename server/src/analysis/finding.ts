// What an engine check found, before it becomes a diagnostic: the scenarios it was seen in are kept
// apart from the message, so findings from several scenarios merge into one diagnostic and the
// corpus test can count the (template, scenario) pairs that were flagged.
import type { Diagnostic, EngineId, Severity, Span } from "../document";

export interface Finding extends Span {
  engine: EngineId;
  code: string;
  severity: Severity;
  message: string;
  /** The node it is about (-1: the whole template). */
  nodeId: number;
  /** The sample scenarios it happens in; empty for static findings, which hold for any input. */
  scenarios: string[];
}

/** Merges findings of one kind at one place (the first message stands), collecting their scenarios. */
export function mergeFindings(findings: readonly Finding[]): Finding[] {
  const byKey = new Map<string, Finding>();
  for (const f of findings) {
    const key = `${f.engine}\u0000${f.code}\u0000${f.start}\u0000${f.end}`;
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, { ...f, scenarios: [...f.scenarios] });
    else for (const s of f.scenarios) if (!seen.scenarios.includes(s)) seen.scenarios.push(s);
  }
  return [...byKey.values()];
}

function scenarioList(names: readonly string[], total: number): string {
  if (names.length === total && total > 1) return "in every sample scenario";
  const quoted = names.map((n) => `'${n}'`);
  if (quoted.length === 1) return `in scenario ${quoted[0]}`;
  return `in scenarios ${quoted.slice(0, -1).join(", ")} and ${quoted[quoted.length - 1]}`;
}

export function toDiagnostic(f: Finding, scenarioCount: number): Diagnostic {
  const where = f.scenarios.length ? ` (${scenarioList(f.scenarios, scenarioCount)})` : "";
  return { start: f.start, end: f.end, severity: f.severity, code: f.code, engine: f.engine, message: f.message + where };
}
