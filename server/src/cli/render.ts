// `chat-template render FILE [--engine E] (--scenario NAME [--scenarios FILE.json] | --context FILE.json) [--now ISO-8601] [--llama-server-args FLAGS]`
// Writes the exact rendered bytes to stdout and nothing else. A template error exits 3 with one
// JSON line on stderr ({"error", "line", "column", "code"}, 1-based, columns in UTF-16 units) and
// nothing on stdout; usage errors (bad flags, unreadable files, bad JSON, unknown scenario, an
// engine without a dialect yet) exit 2.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { dialectFor, registeredEngines, ENGINE_IDS } from "../dialects";
import { TemplateDocument } from "../document";
import { JsonError, parseJson, parseWallClock, PyDict } from "../interpreter";
import { renderRequest, parseScenarios, type Scenario, scenarioContext, withServerArgs } from "../analysis";
import { type CommandHelp, type CommandIO, oneOf, parseArgs, UsageError } from "../commandLine";
import { LLAMA_SERVER_ARGS, llamaServerArgs } from "./llamaServerArgs";

export const help: CommandHelp = {
  usage:
    "chat-template render FILE [--engine jinja2|llamacpp|minja|hfjinja|llama-server|jinja2-3.1.2] (--scenario NAME [--scenarios FILE.json] | --context FILE.json) [--now ISO-8601] [--llama-server-args FLAGS]",
  summary: "print the exact prompt one engine renders for a scenario or a context",
  description:
    "Renders the template in one engine and writes the exact bytes (UTF-8) to stdout and nothing else. jinja2 is " +
    "Python Jinja2 3.1.6 as Hugging Face transformers configures it; llamacpp is llama.cpp's own engine (v0.5.0), " +
    "minja is google/minja, hfjinja is @huggingface/jinja 0.5.13, llama-server is the prompt llama-server really sends " +
    "(its chat layer's context fed to llama.cpp's engine), jinja2-3.1.2 is the older Jinja2. The context is a built-in " +
    "scenario (templates/scenarios.json), one of your own scenario files, or a whole JSON context.",
  options: [
    ["--engine NAME", "the engine (default jinja2)"],
    ["--scenario NAME", "a scenario of templates/scenarios.json (or of --scenarios FILE.json), with bos/eos added"],
    ["--context FILE.json", "the whole template context, read as Python's json.loads reads it"],
    ["--now ISO-8601", "the instant strftime_now reads (default: the host clock)"],
    ["--llama-server-args FLAGS", "llama-server engine: the flags your llama-server starts with (--chat-template-kwargs, --reasoning, …)"],
  ],
  examples: [
    "chat-template render chat_template.jinja --scenario basic",
    "chat-template render chat_template.jinja --engine llama-server --scenario tool-call-roundtrip",
    "chat-template render chat_template.jinja --context request.json --now 2026-01-15T09:30:00",
  ],
  exitCodes: [
    [0, "rendered"],
    [2, "usage error: bad flags, unreadable files, bad JSON, an unknown scenario"],
    [3, "the template fails in that engine: nothing on stdout, one JSON line {error, line, column, code} on stderr"],
  ],
};

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read ${what} ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function readJson(file: string, what: string): unknown {
  try {
    return parseJson(readText(file, what));
  } catch (e) {
    if (e instanceof JsonError) throw new UsageError(`${what} ${file} is not valid JSON: ${e.message}`);
    throw e;
  }
}

/** templates/scenarios.json ships next to dist/ (and next to server/ in a checkout). */
function builtinScenariosPath(): string {
  for (let d = __dirname; ; d = dirname(d)) {
    const p = join(d, "templates", "scenarios.json");
    if (existsSync(p)) return p;
    if (dirname(d) === d) throw new UsageError("the built-in templates/scenarios.json is missing; pass --scenarios FILE.json");
  }
}

function loadContext(values: Map<string, string>): PyDict {
  const scenario = values.get("scenario");
  const contextFile = values.get("context");
  if (scenario !== undefined && contextFile !== undefined) throw new UsageError("give either --scenario or --context, not both");
  if (contextFile !== undefined) {
    if (values.has("scenarios")) throw new UsageError("--scenarios goes with --scenario, not --context");
    const ctx = readJson(contextFile, "context");
    if (!(ctx instanceof PyDict)) throw new UsageError(`context ${contextFile} must be a JSON object`);
    return ctx;
  }
  if (scenario === undefined) throw new UsageError("give --scenario NAME or --context FILE.json");
  const file = values.get("scenarios") ?? builtinScenariosPath();
  let scenarios: Scenario[];
  try {
    scenarios = parseScenarios(readText(file, "scenarios"));
  } catch (e) {
    if (e instanceof JsonError || e instanceof TypeError) throw new UsageError(`scenarios ${file}: ${e.message}`);
    throw e;
  }
  const found = scenarios.find((s) => s.name === scenario);
  if (!found) throw new UsageError(`no scenario '${scenario}' in ${file} (it has: ${scenarios.map((s) => s.name).join(", ")})`);
  return scenarioContext(found);
}

export function renderCommand(argv: string[], io: CommandIO): number {
  const args = parseArgs(argv, { values: ["engine", "scenario", "scenarios", "context", "now", LLAMA_SERVER_ARGS] });
  if (args.positionals.length !== 1)
    throw new UsageError(args.positionals.length ? "give exactly one template file" : "no template file given");
  const engine = oneOf("engine", args.values.get("engine") ?? "jinja2", ENGINE_IDS);
  const dialect = dialectFor(engine);
  if (!dialect) throw new UsageError(`engine '${engine}' is not available yet (available: ${registeredEngines().join(", ")})`);
  const nowText = args.values.get("now");
  const now = nowText === undefined ? undefined : parseWallClock(nowText);
  if (now === null) throw new UsageError(`--now must be an ISO-8601 date-time such as 2026-01-15T09:30:00 (got '${nowText}')`);
  const file = args.positionals[0];
  const text = readText(file, "template");
  const context = loadContext(args.values);
  const doc = new TemplateDocument(text);
  const r = renderRequest(doc, context, { dialect: withServerArgs(dialect, llamaServerArgs(args.values)), now });
  if (r.error) {
    const p = doc.lines.positionAt(r.error.start);
    io.stderr(JSON.stringify({ error: r.error.message, line: p.line + 1, column: p.character + 1, code: r.error.code }) + "\n");
    return 3;
  }
  io.stdout(Buffer.from(r.output, "utf8"));
  return 0;
}
