// Whether two parses of a template behave alike where the engine checks look: every engine's render of every
// scenario (the same output, or the same error) and llama.cpp's capability probe run on each engine (the same
// caps, the same probes, the same probe errors). The formatter keeps an edit only when this holds: a layout
// change must be invisible to every engine, not only to Jinja2.
import type { Dialect, RenderResult } from "../interpreter";
import { ENGINE_LABELS, type TemplateDocument } from "../document";
import { capsOf, type CapsReport } from "./caps/capsProbe";
import { renderScenario } from "./scenarioRenders";
import type { Scenario } from "./scenario";

function outcome(r: RenderResult): string {
  return r.error ? `error ${r.error.code}: ${r.error.message}` : `output ${r.output}`;
}

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
  for (const dialect of dialects) {
    const engine = ENGINE_LABELS[dialect.engine];
    for (const s of scenarios) {
      const a = renderScenario(doc, dialect, s);
      const b = renderScenario(next, dialect, s);
      if (outcome(a) === outcome(b)) continue;
      const where = `in scenario '${s.name}'`;
      if (a.error && b.error) return `${engine} would throw another error ${where}`;
      if (b.error) return `${engine} would throw ${where}, where it renders now`;
      if (a.error) return `${engine} would render ${where}, where it throws now`;
      return `${engine} would render differently ${where}`;
    }
    if (probeOutcome(capsOf(doc, dialect, { nullTools: true })) !== probeOutcome(capsOf(next, dialect, { nullTools: true })))
      return `${engine}'s capability probe would infer differently`;
  }
  return null;
}
