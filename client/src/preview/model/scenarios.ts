// The scenario catalogue: the built-in sample conversations and the user's own files. A user's file is
// one scenario (the context object, named after the file); a broken file stays in the list with its
// problem, so the picker can say why it cannot be chosen instead of silently dropping it.
import { JsonError, type PyDict } from "../../../../server/src/interpreter";
import { parseScenario, parseScenarios } from "../../../../server/src/analysis";
import type { ScenarioInfo } from "../protocol";

/** A scenario as the picker lists it (the scenarios themselves are read by the interpreter's loader). */
export interface ScenarioEntry extends ScenarioInfo {
  /** The scenario's keys; null exactly when `problem` says why. */
  context: PyDict | null;
}

export function builtinScenarios(scenariosJson: string): ScenarioEntry[] {
  return parseScenarios(scenariosJson).map(({ name, data }) => ({
    id: `built-in:${name}`,
    name,
    source: "built-in",
    file: null,
    problem: null,
    context: data,
  }));
}

/** One workspace scenario file; `file` is how it is shown (a workspace-relative path). */
export function workspaceScenario(file: string, text: string): ScenarioEntry {
  const name = (file.split(/[\\/]/).pop() ?? file).replace(/\.json$/i, "");
  const base = { id: `workspace:${file}`, name, source: "workspace" as const, file };
  try {
    return { ...base, problem: null, context: parseScenario(name, text).data };
  } catch (e) {
    if (!(e instanceof JsonError || e instanceof TypeError)) throw e;
    return { ...base, problem: `${file}: ${e.message}`, context: null };
  }
}

export function scenarioInfo({ context: _, ...info }: ScenarioEntry): ScenarioInfo {
  return info;
}
