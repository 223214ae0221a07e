// Renders of one parsed template in one dialect, one per sample scenario, computed on first use and
// kept with the document: diagnostics, code actions and fixes ask for the same renders many times.
import type { Dialect } from "../dialects/dialect";
import type { TemplateDocument } from "../document";
import { render, type RenderResult } from "../interpreter/render";
import { withUsageStats } from "./caps/usage";
import { CHECK_LIMITS, CHECK_NOW, scenarioContext, type Scenario } from "./scenarios";

const cache = new WeakMap<TemplateDocument, Map<Dialect, Map<Scenario, RenderResult>>>();

export function renderScenario(doc: TemplateDocument, dialect: Dialect, scenario: Scenario): RenderResult {
  let byDialect = cache.get(doc);
  if (!byDialect) cache.set(doc, (byDialect = new Map()));
  let byScenario = byDialect.get(dialect);
  if (!byScenario) byDialect.set(dialect, (byScenario = new Map()));
  let r = byScenario.get(scenario);
  if (!r) byScenario.set(scenario, (r = render(doc, scenarioContext(scenario), { dialect: withUsageStats(dialect), now: CHECK_NOW, limits: CHECK_LIMITS })));
  return r;
}
