// The registry of dialects: engine id → the dialect of the engine version the project targets.
// A new engine (or version) is one file in this folder, one line here and its id and label in engines.ts.
import type { EngineId } from "../document";
import type { Dialect } from "../interpreter/kit";
import type { EngineFact } from "./engineFact";
import { ENGINE_IDS } from "./engines";
import { HFJINJA_FACTS } from "./hfjinja/facts";
import { hfjinja_0_5_13 } from "./hfjinja-0.5.13";
import { jinja2_3_1_2 } from "./jinja2-3.1.2";
import { jinja2_3_1_6 } from "./jinja2-3.1.6";
import { LLAMACPP_FACTS } from "./llamacpp/facts";
import { llamacpp_0_5_0 } from "./llamacpp-v0.5.0";
import { llamaServer_0_5_0 } from "./llamaserver-v0.5.0";
import { MINJA_FACTS } from "./minja/facts";
import { minja_021c229 } from "./minja-021c229";

// every engine id has its dialect here (the type says so); ENGINE_IDS (engines.ts) is their order
const DIALECTS: Record<EngineId, Dialect> = {
  jinja2: jinja2_3_1_6,
  llamacpp: llamacpp_0_5_0,
  minja: minja_021c229,
  hfjinja: hfjinja_0_5_13,
  "llama-server": llamaServer_0_5_0,
  "jinja2-3.1.2": jinja2_3_1_2,
};

/**
 * What each engine does differently from Jinja2, in words (each with a sample its facts test renders):
 * hover and completion show them on the filter, test or method they name, and the diagnostics word a
 * missing filter, test or global with them.
 */
const ENGINE_FACTS: Partial<Record<EngineId, readonly EngineFact[]>> = {
  llamacpp: LLAMACPP_FACTS,
  minja: MINJA_FACTS,
  hfjinja: HFJINJA_FACTS,
};

/** An engine's facts about one construct, e.g. ("minja", "filter", "attr"). */
export function engineFactsAbout(engine: EngineId, kind: EngineFact["kind"], name: string): readonly EngineFact[] {
  return (ENGINE_FACTS[engine] ?? []).filter((f) => f.kind === kind && f.name === name);
}

export function dialectFor(engine: EngineId): Dialect | undefined {
  return DIALECTS[engine];
}

export function registeredEngines(): EngineId[] {
  return [...ENGINE_IDS];
}
export { DEFAULT_ENGINES, ENGINE_IDS, ENGINE_LABELS, isEngineId } from "./engines";
export { llamacpp_0_5_0 } from "./llamacpp-v0.5.0";
export { llamaServer_0_5_0 } from "./llamaserver-v0.5.0";
export { JINJA2_REFERENCE_VERSION, jinja2_3_1_6 } from "./jinja2-3.1.6";
export { jinja2_3_1_2 } from "./jinja2-3.1.2";
export { tokenize } from "./llamacpp/lexer";
export type { EngineFact } from "./engineFact";
