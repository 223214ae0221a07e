// Every engine finding for a template: the static rules, the scenario renders — skipped for an
// engine that cannot compile the template at all (each render would fail at the same refusal,
// which the static rule already reports) — and, for llama.cpp, its capability probe. None for a
// template with syntax errors: engines' own parsers would only restate them.
import type { Dialect } from "../interpreter";
import { dialectFor, ENGINE_LABELS } from "../dialects";
import type { EngineId, TemplateDocument } from "../document";
import { probeFindings } from "./caps/probeFindings";
import { withServerArgs } from "./chatLayer";
import { prefixStabilityFindings } from "./prefixStability";
import { mergeFindings, type Finding } from "./finding";
import { scenarioFindings } from "./scenarioChecks";
import type { Scenario } from "./scenario";
import { staticFindings } from "./staticChecks";
import { referenceRaisesThere } from "./referenceRaises";

/** Every engine is measured against Python Jinja2 as HF transformers runs it. */
export function referenceDialect(): Dialect {
  return dialectFor("jinja2")!;
}

export interface EngineCheckOptions {
  /** Also run the older probe with tools=[null] (a warning where it throws). */
  nullToolsProbe: boolean;
}

/** The engines whose capability probe the checks run (the probe is llama.cpp's). */
const PROBED: ReadonlySet<EngineId> = new Set(["llamacpp"]);
/** The engines the endpoint serves with (llama.cpp's chat layer): their prompts must keep the KV cache across turns. */
const SERVED: ReadonlySet<EngineId> = new Set(["llama-server", "llamacpp"]);

/**
 * The dialects of the engines that have one (an engine without a dialect yet is not checked); llama-server's
 * as started with `serverArgs` (its command-line flags; throws ServerArgsError on one it cannot read).
 */
export function dialectsOf(engines: readonly EngineId[], serverArgs: readonly string[] = []): Dialect[] {
  return engines
    .map((e) => dialectFor(e))
    .filter((d): d is Dialect => d !== undefined)
    .map((d) => withServerArgs(d, serverArgs));
}

const cache = new WeakMap<TemplateDocument, Map<string, Finding[]>>();
const scenarioSetIds = new WeakMap<readonly Scenario[], number>();
let nextScenarioSetId = 0;

/** The findings, computed once per (document, engines, scenarios, options): diagnostics, code actions and fixes share them. */
export function engineFindings(
  doc: TemplateDocument,
  engines: readonly Dialect[],
  scenarios: readonly Scenario[],
  options: EngineCheckOptions,
): Finding[] {
  if (!scenarioSetIds.has(scenarios)) scenarioSetIds.set(scenarios, nextScenarioSetId++);
  const key = `${engines.map((e) => e.engine + (e.serverArgs ? JSON.stringify(e.serverArgs) : "")).join(",")}:${scenarioSetIds.get(scenarios)}:${options.nullToolsProbe}`;
  let byKey = cache.get(doc);
  if (!byKey) cache.set(doc, (byKey = new Map()));
  let found = byKey.get(key);
  if (!found) byKey.set(key, (found = computeFindings(doc, engines, scenarios, options)));
  return found;
}

/** Tests and filters the engine lacks: an error, unless only inputs Jinja2 raises on reach them. */
const PROBED_ABSENCES = new Set(["unknown-test", "unknown-filter"]);

function unlessReferenceRaises(doc: TemplateDocument, reference: Dialect, engine: Dialect, f: Finding): Finding {
  if (f.severity !== "error" || !PROBED_ABSENCES.has(f.code.slice(f.code.indexOf("/") + 1))) return f;
  const raised = referenceRaisesThere(doc, reference, engine, f);
  if (raised === null) return f;
  const message = `${f.message}; only inputs on which ${ENGINE_LABELS[reference.engine]} raises too reach it (${raised}), so it changes no outcome`;
  return { ...f, severity: "information", message };
}

function computeFindings(
  doc: TemplateDocument,
  engines: readonly Dialect[],
  scenarios: readonly Scenario[],
  options: EngineCheckOptions,
): Finding[] {
  if (doc.problems.some((p) => p.severity === "error")) return [];
  const reference = referenceDialect();
  const out: Finding[] = [];
  for (const engine of engines) {
    const id = engine.engine;
    const found = staticFindings(doc, reference, engine).map((f) =>
      engine === reference ? f : unlessReferenceRaises(doc, reference, engine, f),
    );
    out.push(...found);
    if (PROBED.has(id)) out.push(...probeFindings(doc, engine, { nullTools: options.nullToolsProbe }));
    // The engine compiles the whole template first: with a refusal every render fails, so none is needed.
    if (found.some((f) => f.code === `${id}/unsupported-syntax`)) continue;
    if (SERVED.has(id)) out.push(...prefixStabilityFindings(doc, engine));
    const statics = new Map(found.filter((f) => f.severity === "error").map((f) => [f.nodeId, f]));
    for (const f of scenarioFindings(doc, reference, engine, scenarios)) {
      // A construct the engine throws on when reached is reported once: statically, with the scenarios that reach it.
      const s = f.code === `${id}/throws` ? statics.get(f.nodeId) : undefined;
      if (s) s.scenarios.push(...f.scenarios);
      else out.push(f);
    }
  }
  return mergeFindings(out);
}
