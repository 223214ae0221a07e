// Whether two parses of a template behave alike where the engine checks look: every engine's render of every
// scenario (renderDifference) and llama.cpp's capability probe run on each engine (the same caps, the same probes,
// the same probe errors). The formatter keeps an edit only when this holds: a layout change must be invisible to
// every engine, not only to Jinja2.
import type { Dialect } from "../interpreter";
import { ENGINE_LABELS } from "../dialects";
import type { TemplateDocument } from "../document";
import { capsOf, type CapsReport } from "./caps/capsProbe";
import { renderDifference } from "./renderDifference";
import type { Scenario } from "./scenario";

function probeOutcome(r: CapsReport): string {
  const error = (e: { probe: string; code: string; message: string } | null) => e && `${e.probe} ${e.code} ${e.message}`;
  return JSON.stringify([r.caps, r.probes, r.errors.map(error), error(r.exhausted)]);
}

/** null when `next` behaves as `doc` does; otherwise where it first differs, in words. */
export function behaviourDifference(
  doc: TemplateDocument,
  next: TemplateDocument,
  dialects: readonly Dialect[],
  scenarios: readonly Scenario[],
): string | null {
  const d = renderDifference(doc, next, dialects, scenarios);
  if (d) {
    const engine = ENGINE_LABELS[d.dialect.engine];
    const where = `in scenario '${d.scenario.name}'`;
    if (d.before.error && d.after.error) return `${engine} would throw another error ${where}`;
    if (d.after.error) return `${engine} would throw ${where}, where it renders now`;
    if (d.before.error) return `${engine} would render ${where}, where it throws now`;
    return `${engine} would render differently ${where}`;
  }
  for (const dialect of dialects)
    if (probeOutcome(capsOf(doc, dialect, { nullTools: true })) !== probeOutcome(capsOf(next, dialect, { nullTools: true })))
      return `${ENGINE_LABELS[dialect.engine]}'s capability probe would infer differently`;
  return null;
}
