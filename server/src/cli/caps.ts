// `chat-template caps FILE [--engine llamacpp|llama-server|minja] [--null-tools-probe]`: what llama.cpp's
// capability probe infers about a template, run on the engine's dialect (llama-server probes as llama.cpp does), as one JSON object: caps.cpp's
// supports_* flags, the probe renders that threw (1-based line, UTF-16 column) and the tool-call
// format of llama.cpp's autoparser.
import { CAPS_KEYS, capsOf, detectToolCallFormat } from "../analysis";
import { dialectFor, registeredEngines } from "../dialects";
import { TemplateDocument } from "../document";
import { type CommandIO, oneOf, parseArgs, UsageError } from "../commandLine";
import { readTemplate } from "./readTemplate";

/** The engines that run a capability probe: llama.cpp's caps.cpp, and minja's own. */
const PROBING_ENGINES = ["llamacpp", "llama-server", "minja"] as const;

export const usage = `chat-template caps FILE [--engine ${PROBING_ENGINES.join("|")}] [--null-tools-probe]`;

export function capsCommand(argv: string[], io: CommandIO): number {
  const args = parseArgs(argv, { values: ["engine"], switches: ["null-tools-probe"] });
  if (args.positionals.length !== 1)
    throw new UsageError(args.positionals.length ? "give exactly one template file" : "no template file given");
  const engine = oneOf("engine", args.values.get("engine") ?? "llamacpp", PROBING_ENGINES);
  const dialect = dialectFor(engine);
  if (!dialect) throw new UsageError(`engine '${engine}' is not available yet (available: ${registeredEngines().join(", ")})`);
  const doc = new TemplateDocument(readTemplate(args.positionals[0]));
  const { caps, errors } = capsOf(doc, dialect, { nullTools: args.switches.has("null-tools-probe") });
  const out: Record<string, unknown> = {};
  for (const k of CAPS_KEYS) out[k] = caps[k];
  out.probe_errors = errors.map((e) => {
    const p = doc.lines.positionAt(e.start);
    return { probe: e.probe, line: p.line + 1, column: p.character + 1, message: e.message };
  });
  out.tool_call_format = detectToolCallFormat(doc, dialect, caps);
  io.stdout(JSON.stringify(out, null, 2) + "\n");
  return 0;
}
