// The template context of one preview render: the scenario, then the render options over it, then the
// extra variables over everything. bos/eos come from the option, else the scenario, else the bound
// model's vocabulary, else the corpus defaults; add_generation_prompt is always set (HF transformers
// and llama.cpp always pass it, False by default), enable_thinking only when someone says so.
import { jsonDumps, JsonError, parseJson, PyDict } from "../../../../server/src/interpreter";
import { DEFAULT_SPECIAL_TOKENS } from "../../../../server/src/analysis";
import type { ModelTokens } from "../../gguf/modelBinding";
import type { ContextOptions, PreviewState } from "../protocol";

export interface BuiltContext {
  context: PyDict;
  defaults: PreviewState["defaults"];
  /** Why the extra variables were left out, or null. */
  problem: string | null;
}

export function contextDefaults(scenario: PyDict, model: ModelTokens | null): PreviewState["defaults"] {
  const str = (key: string, fallback: string) => {
    const v = scenario.get(key);
    return typeof v === "string" ? v : fallback;
  };
  const agp = scenario.get("add_generation_prompt");
  const thinking = scenario.get("enable_thinking");
  return {
    bosToken: str("bos_token", model?.bosToken ?? DEFAULT_SPECIAL_TOKENS.bos_token),
    eosToken: str("eos_token", model?.eosToken ?? DEFAULT_SPECIAL_TOKENS.eos_token),
    addGenerationPrompt: typeof agp === "boolean" ? agp : false,
    enableThinking: typeof thinking === "boolean" ? thinking : null,
  };
}

/** Parses the extra variables: "" is none; anything else must be a JSON object. */
export function parseExtraVariables(text: string): { vars: PyDict | null; problem: string | null } {
  if (text.trim() === "") return { vars: null, problem: null };
  try {
    const v = parseJson(text);
    if (v instanceof PyDict) return { vars: v, problem: null };
    return { vars: null, problem: "extra variables must be a JSON object" };
  } catch (e) {
    if (e instanceof JsonError) return { vars: null, problem: `extra variables: ${e.message}` };
    throw e;
  }
}

/** Applies the options that are set (and, with `defaults`, the defaults of those that are not). */
function merge(
  scenario: PyDict,
  options: ContextOptions,
  defaults: PreviewState["defaults"] | null,
): { context: PyDict; problem: string | null } {
  const ctx = PyDict.from(scenario.entries());
  const set = (key: string, option: string | boolean | null, fallback: string | boolean | null | undefined) => {
    const v = option ?? fallback;
    if (v !== null && v !== undefined) ctx.set(key, v);
  };
  set("bos_token", options.bosToken, defaults?.bosToken);
  set("eos_token", options.eosToken, defaults?.eosToken);
  set("add_generation_prompt", options.addGenerationPrompt, defaults?.addGenerationPrompt);
  set("enable_thinking", options.enableThinking, defaults?.enableThinking);
  const { vars, problem } = parseExtraVariables(options.extraVariables);
  if (vars) for (const [k, v] of vars.entries()) ctx.set(k, v);
  return { context: ctx, problem };
}

export function buildContext(scenario: PyDict, options: ContextOptions, model: ModelTokens | null): BuiltContext {
  const defaults = contextDefaults(scenario, model);
  return { ...merge(scenario, options, defaults), defaults };
}

const ONE_LINE = { ensureAscii: true, indent: null, itemSeparator: ", ", keySeparator: ": ", sortKeys: false };
const PRETTY = { ensureAscii: false, indent: "  ", itemSeparator: ",", keySeparator: ": ", sortKeys: false };

/**
 * The context as JSON that Python's json.loads reads back to the same values (1.0 stays a float, big
 * ints stay exact), for the real engines. ASCII only, so it travels on one line of a pipe.
 */
export function contextJson(context: PyDict): string {
  return jsonDumps(context, ONE_LINE, () => {});
}

/** "New scenario from current": the scenario with the options the user set, as a scenario file's text. */
export function scenarioFromCurrent(scenario: PyDict, options: ContextOptions): string {
  return jsonDumps(merge(scenario, options, null).context, PRETTY, () => {}) + "\n";
}
