// Whether two templates render alike: the first engine × scenario where their outcomes differ. The same text
// where both render, the same error where both throw. Safe fixes and rename prove an edit harmless with it.
import type { Dialect, RenderError, RenderResult } from "../interpreter";
import type { TemplateDocument } from "../document";
import type { Scenario } from "./scenario";
import { renderScenario } from "./scenarioRenders";

export interface RenderDifference {
  dialect: Dialect;
  scenario: Scenario;
  before: RenderResult;
  after: RenderResult;
}

/** How an error of `after` reads as one of `before` (rename maps the new name back to the old); absent: as is. */
export type ErrorReading = (after: RenderError) => string;

function sameOutcome(a: RenderResult, b: RenderResult, readAfter: ErrorReading = (e) => e.message): boolean {
  if (a.error || b.error) return !!a.error && !!b.error && a.error.code === b.error.code && a.error.message === readAfter(b.error);
  return a.output === b.output;
}

/** The first dialect × scenario where `after` renders otherwise than `before`; null when every one renders alike. */
export function renderDifference(
  before: TemplateDocument,
  after: TemplateDocument,
  dialects: readonly Dialect[],
  scenarios: readonly Scenario[],
  readAfter?: ErrorReading,
): RenderDifference | null {
  for (const dialect of dialects)
    for (const scenario of scenarios) {
      const b = renderScenario(before, dialect, scenario);
      const a = renderScenario(after, dialect, scenario);
      if (!sameOutcome(b, a, readAfter)) return { dialect, scenario, before: b, after: a };
    }
  return null;
}
