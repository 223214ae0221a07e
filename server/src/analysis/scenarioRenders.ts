// Renders of one parsed template in one dialect, one per sample scenario, computed on first use and
// kept with the document: diagnostics, code actions and fixes ask for the same renders many times.
import { type Dialect, type RenderResult } from "../interpreter";
import { type Scenario, scenarioContext } from "./scenario";
import type { TemplateDocument } from "../document";
import { withUsageStats } from "./caps/usage";
import { renderRequest } from "./chatLayer";
import { CHECK_LIMITS, CHECK_NOW } from "./scenarios";

const cache = new WeakMap<TemplateDocument, Map<Dialect, Map<Scenario, RenderResult>>>();

export function renderScenario(doc: TemplateDocument, dialect: Dialect, scenario: Scenario): RenderResult {
  let byDialect = cache.get(doc);
  if (!byDialect) cache.set(doc, (byDialect = new Map()));
  let byScenario = byDialect.get(dialect);
  if (!byScenario) byDialect.set(dialect, (byScenario = new Map()));
  let r = byScenario.get(scenario);
  if (!r)
    byScenario.set(
      scenario,
      (r = renderRequest(doc, scenarioContext(scenario), {
        dialect,
        renderWith: withUsageStats(dialect),
        now: CHECK_NOW,
        limits: CHECK_LIMITS,
      })),
    );
  return r;
}
