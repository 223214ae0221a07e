// The registry of dialects: engine id → the dialect of the engine version the project targets.
// A new engine (or version) is one file in this folder plus one line here.
import type { EngineId } from "../types";
import type { Dialect } from "./dialect";
import { hfjinja_0_5_13 } from "./hfjinja-0.5.13";
import { jinja2_3_1 } from "./jinja2-3.1";
import { llamacpp_0_5_0 } from "./llamacpp-v0.5.0";
import { minja_021c229 } from "./minja-021c229";

const DIALECTS: Partial<Record<EngineId, Dialect>> = {
  jinja2: jinja2_3_1,
  llamacpp: llamacpp_0_5_0,
  minja: minja_021c229,
  hfjinja: hfjinja_0_5_13,
};

export function dialectFor(engine: EngineId): Dialect | undefined {
  return DIALECTS[engine];
}

export function registeredEngines(): EngineId[] {
  return Object.keys(DIALECTS) as EngineId[];
}
