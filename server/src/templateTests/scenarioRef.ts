// A case's `scenario`: the name of a built-in sample conversation (templates/scenarios.json) or the
// path of a scenario file (one conversation, templates/scenario.schema.json), relative to the test file.
// Read once when the test file is read, so a missing file is an error at the case's line.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { BUILTIN_SCENARIOS, scenarioContext } from "../analysis";
import { JsonError, parseJson, PyDict } from "../interpreter";

export interface ScenarioRef {
  /** As written in the test file. */
  name: string;
  /** A fresh template context: engines' lists are mutable, so renders must not share one. */
  context(): PyDict;
}

/** A path when it names a .json file or a folder; otherwise a built-in name. */
export function isScenarioPath(ref: string): boolean {
  return ref.endsWith(".json") || ref.includes("/") || ref.includes("\\");
}

/** The scenario, or a message saying why there is none (the caller adds the location). */
export function resolveScenario(ref: string, testFilePath: string): ScenarioRef | string {
  if (!isScenarioPath(ref)) {
    const s = BUILTIN_SCENARIOS.find((b) => b.name === ref);
    if (!s)
      return `no built-in scenario "${ref}" (built in: ${BUILTIN_SCENARIOS.map((b) => b.name).join(", ")}; or give a path to a .json scenario file)`;
    return { name: ref, context: () => scenarioContext(s) };
  }
  const file = resolve(dirname(testFilePath), ref);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    return `cannot read scenario file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
  }
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch (e) {
    if (e instanceof JsonError) return `scenario file ${file} is not valid JSON: ${e.message}`;
    throw e;
  }
  if (!(parsed instanceof PyDict) || !parsed.has("messages")) return `scenario file ${file} must be a JSON object with "messages"`;
  const scenario = { name: ref, data: parsed };
  return { name: ref, context: () => scenarioContext(scenario) };
}
