// A launch configuration made concrete: the template's text, the context (a built-in scenario by name, a scenario
// file, or a JSON list of messages) and the engine. Bad input is a LaunchError, worded for the user.
import { existsSync, readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { BUILTIN_SCENARIOS, parseScenario, scenarioContext } from "../analysis";
import { dialectFor, registeredEngines, ENGINE_IDS, isEngineId } from "../dialects";
import { type EngineId, TemplateDocument } from "../document";
import { JsonError, jsonDumps, parseJson, PyDict } from "../interpreter";

/** The `chat-template` debugger's launch attributes (package.json's contributes.debuggers). */
export interface LaunchArguments {
  template?: string;
  scenario?: string;
  engine?: string;
  addGenerationPrompt?: boolean;
  stopOnEntry?: boolean;
}

export interface Launch {
  templatePath: string;
  doc: TemplateDocument;
  contextJson: string;
  engine: EngineId;
  stopOnEntry: boolean;
}

export class LaunchError extends Error {}

const DEFAULT_SCENARIO = "basic";

function read(file: string, what: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw new LaunchError(`cannot read the ${what} ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function scenarioFromFile(file: string): PyDict {
  const text = read(file, "scenario");
  let v;
  try {
    v = parseJson(text);
  } catch (e) {
    if (e instanceof JsonError) throw new LaunchError(`the scenario ${file} is not valid JSON: ${e.message}`);
    throw e;
  }
  // a messages JSON: the list alone
  if (Array.isArray(v)) {
    const data = new PyDict();
    data.set("messages", v);
    return scenarioContext({ name: basename(file), data });
  }
  try {
    return scenarioContext(parseScenario(basename(file), text));
  } catch (e) {
    throw new LaunchError(`the scenario ${file}: ${(e as Error).message}`);
  }
}

export function resolveLaunch(a: LaunchArguments): Launch {
  if (typeof a.template !== "string" || a.template === "") throw new LaunchError("the launch configuration names no template");
  const templatePath = resolve(a.template);
  const doc = new TemplateDocument(read(templatePath, "template"));
  const engine = a.engine ?? "jinja2";
  if (!isEngineId(engine)) throw new LaunchError(`unknown engine '${engine}' (engines: ${ENGINE_IDS.join(", ")})`);
  if (!dialectFor(engine)) throw new LaunchError(`engine '${engine}' is not available (available: ${registeredEngines().join(", ")})`);
  const scenario = a.scenario ?? DEFAULT_SCENARIO;
  const builtin = BUILTIN_SCENARIOS.find((s) => s.name === scenario);
  if (!builtin && !existsSync(resolve(scenario)))
    throw new LaunchError(
      `no scenario '${scenario}': neither a built-in one (${BUILTIN_SCENARIOS.map((s) => s.name).join(", ")}) nor a file`,
    );
  const context = builtin ? scenarioContext(builtin) : scenarioFromFile(resolve(scenario));
  if (a.addGenerationPrompt !== undefined) context.set("add_generation_prompt", a.addGenerationPrompt === true);
  const contextJson = jsonDumps(
    context,
    { ensureAscii: false, indent: null, itemSeparator: ", ", keySeparator: ": ", sortKeys: false },
    () => {},
  );
  return { templatePath, doc, contextJson, engine, stopOnEntry: a.stopOnEntry === true };
}
