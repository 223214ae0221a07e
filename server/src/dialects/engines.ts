// The engines, as users and settings name them: the registry's ids in order (index.ts has a dialect for each),
// their labels, and the ones checked by default.
import type { EngineId } from "../document";

/** How engines are named to users (hover, messages); its order is the engines' order everywhere. */
export const ENGINE_LABELS: Readonly<Record<EngineId, string>> = {
  jinja2: "Jinja2",
  llamacpp: "llama.cpp",
  minja: "minja",
  hfjinja: "@huggingface/jinja",
  "llama-server": "llama-server",
  "jinja2-3.1.2": "Jinja2 3.1.2",
};

export const ENGINE_IDS = Object.keys(ENGINE_LABELS) as readonly EngineId[];

/** Checked when no setting or --engines says otherwise; jinja2 (Jinja2 3.1.6) is the reference. */
export const DEFAULT_ENGINES: readonly EngineId[] = ["jinja2", "llamacpp", "minja"];

export function isEngineId(s: string): s is EngineId {
  return (ENGINE_IDS as readonly string[]).includes(s);
}
