// Sample conversations (templates/scenarios.json, the corpus's scenarios.json) as template
// contexts: the scenario's own keys plus the bos/eos tokens the corpus renders were made with.
import { PyDict } from "./dict";
import { parseJson } from "./json";

export const DEFAULT_SPECIAL_TOKENS: Readonly<Record<string, string>> = { bos_token: "<|bos|>", eos_token: "<|eos|>" };

/** Parses a scenarios file: a JSON object of name → context. Throws JsonError or a TypeError. */
export function parseScenarios(text: string): PyDict {
  const v = parseJson(text);
  if (!(v instanceof PyDict) || [...v.values()].some((s) => !(s instanceof PyDict))) {
    throw new TypeError("a scenarios file is a JSON object of name → object");
  }
  return v;
}

/** The context for one scenario, or undefined when there is none of that name. */
export function scenarioContext(scenarios: PyDict, name: string): PyDict | undefined {
  const s = scenarios.get(name);
  if (!(s instanceof PyDict)) return undefined;
  const ctx = PyDict.from(s.entries());
  for (const [k, v] of Object.entries(DEFAULT_SPECIAL_TOKENS)) if (!ctx.has(k)) ctx.set(k, v);
  return ctx;
}
