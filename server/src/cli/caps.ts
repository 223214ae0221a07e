// `chat-template caps FILE [--engine llamacpp|llama-server|minja] [--null-tools-probe] [--format text|json]`: what
// llama.cpp's capability probe infers about a template, run on the engine's dialect: caps.cpp's supports_*
// flags, the probe renders that threw (1-based line, UTF-16 column) and the tool-call format of llama.cpp's
// autoparser, as a table or as one JSON object.
import { CAPS_KEYS, capsOf, detectToolCallFormat } from "../analysis";
import { dialectFor, registeredEngines } from "../dialects";
import { TemplateDocument } from "../document";
import { type CommandHelp, type CommandIO, oneOf, parseArgs, UsageError } from "../commandLine";
import { capsTable } from "./capsTable";
import { readTemplate } from "./readTemplate";
import { reportSyntaxErrors } from "./syntaxErrors";

/** The engines that run a capability probe: llama.cpp's caps.cpp (llama-server probes as llama.cpp does), and minja's own. */
const PROBING_ENGINES = ["llamacpp", "llama-server", "minja"] as const;

export const help: CommandHelp = {
  usage: `chat-template caps FILE [--engine ${PROBING_ENGINES.join("|")}] [--null-tools-probe] [--format text|json]`,
  summary: "what llama.cpp's capability probe infers about a template (tools, system role, typed content…)",
  description:
    "Runs llama.cpp's capability probe (common/jinja/caps.cpp of v0.5.0) on the template in the engine's dialect and " +
    "prints what llama-server would conclude: whether the template supports tools, tool calls, parallel calls, a " +
    "system role, string and typed content, object arguments, preserved reasoning and reasoning effort; the tool-call " +
    "format llama.cpp's autoparser derives (mode and markers); and each probe render that threw, with its line and " +
    "column. A probe that throws makes llama.cpp infer nothing from that render, which is how tool calls silently fail.",
  options: [
    ["--engine llamacpp|llama-server|minja", "the engine whose dialect renders the probe (default llamacpp)"],
    ["--null-tools-probe", "first run the older probe with tools=[null]; where it throws, every capability is false"],
    ["--format text|json", "a table (default) or one JSON object with caps.cpp's names, probe_errors and tool_call_format"],
  ],
  examples: ["chat-template caps chat_template.jinja", "chat-template caps --engine minja --format json chat_template.jinja"],
  exitCodes: [
    [0, "the probe ran (its throws are part of the output)"],
    [2, "usage error, or the file cannot be read"],
    [3, "the template does not parse (the errors, with line and column, on stderr)"],
  ],
};

export function capsCommand(argv: string[], io: CommandIO): number {
  const args = parseArgs(argv, { values: ["engine", "format"], switches: ["null-tools-probe"] });
  if (args.positionals.length !== 1)
    throw new UsageError(args.positionals.length ? "give exactly one template file" : "no template file given");
  const engine = oneOf("engine", args.values.get("engine") ?? "llamacpp", PROBING_ENGINES);
  const format = oneOf("format", args.values.get("format") ?? "text", ["text", "json"] as const);
  const dialect = dialectFor(engine);
  if (!dialect) throw new UsageError(`engine '${engine}' is not available yet (available: ${registeredEngines().join(", ")})`);
  const file = args.positionals[0];
  const doc = new TemplateDocument(readTemplate(file));
  if (reportSyntaxErrors(doc, file, "caps", io)) return 3;
  const { caps, errors } = capsOf(doc, dialect, { nullTools: args.switches.has("null-tools-probe") });
  const out: Record<string, unknown> = {};
  for (const k of CAPS_KEYS) out[k] = caps[k];
  out.probe_errors = errors.map((e) => {
    const p = doc.lines.positionAt(e.start);
    return { probe: e.probe, line: p.line + 1, column: p.character + 1, message: e.message };
  });
  out.tool_call_format = detectToolCallFormat(doc, dialect, caps);
  io.stdout(format === "json" ? JSON.stringify(out, null, 2) + "\n" : capsTable(engine, out));
  return 0;
}
