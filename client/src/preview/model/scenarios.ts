// The scenario catalogue: the built-in sample conversations and the user's own files. A user's file is
// one scenario (the context object, named after the file); a broken file stays in the list with its
// problem, so the picker can say why it cannot be chosen instead of silently dropping it.
import { PyDict } from "../../../../server/src/interpreter/dict";
import { JsonError, parseJson } from "../../../../server/src/interpreter/json";
import { parseScenarios } from "../../../../server/src/interpreter/scenario";
import type { ScenarioInfo } from "../protocol";

export interface Scenario extends ScenarioInfo {
  /** null exactly when `problem` says why. */
  context: PyDict | null;
}

export function builtinScenarios(scenariosJson: string): Scenario[] {
  return [...parseScenarios(scenariosJson).entries()].map(([name, context]) => ({
    id: `built-in:${String(name)}`,
    name: String(name),
    source: "built-in",
    file: null,
    problem: null,
    context: context as PyDict,
  }));
}

/** One workspace scenario file; `file` is how it is shown (a workspace-relative path). */
export function workspaceScenario(file: string, text: string): Scenario {
  const name = (file.split(/[\\/]/).pop() ?? file).replace(/\.json$/i, "");
  const base = { id: `workspace:${file}`, name, source: "workspace" as const, file };
  let problem: string;
  try {
    const v = parseJson(text);
    if (!(v instanceof PyDict)) problem = "a scenario file is one JSON object (the template context)";
    else if (v.has("messages") && !Array.isArray(v.get("messages"))) problem = "'messages' must be a list";
    else return { ...base, problem: null, context: v };
  } catch (e) {
    if (!(e instanceof JsonError)) throw e;
    problem = e.message;
  }
  return { ...base, problem: `${file}: ${problem}`, context: null };
}

export function scenarioInfo({ context: _, ...info }: Scenario): ScenarioInfo {
  return info;
}
