// `chat-template fix [--engines LIST] FILE`: the template with every safe fix for the engines'
// findings applied, on stdout byte for byte; each fix applied is named on stderr. A fix is safe
// when Jinja2 renders the rewritten template exactly as the original on every sample scenario.
import { dialectsOf } from "../analysis/engineChecks";
import { fixAll } from "../analysis/fixes/quickFixes";
import { BUILTIN_SCENARIOS } from "../analysis/scenarios";
import { TemplateDocument } from "../document";
import { DEFAULT_ENGINES } from "../types";
import { parseArgs, UsageError } from "./args";
import { parseEngineList } from "./check";
import type { CommandIO } from "./io";
import { readTemplate } from "./readTemplate";

export const usage = "chat-template fix [--engines LIST] FILE";

export function fixCommand(argv: string[], io: CommandIO): number {
  const args = parseArgs(argv, { values: ["engines"] });
  if (args.positionals.length !== 1) throw new UsageError(args.positionals.length ? "give exactly one template file" : "no template file given");
  const engines = args.values.has("engines") ? parseEngineList(args.values.get("engines")!) : DEFAULT_ENGINES;
  const doc = new TemplateDocument(readTemplate(args.positionals[0]));
  const { text, applied } = fixAll(doc, dialectsOf(engines), BUILTIN_SCENARIOS, { nullToolsProbe: true });
  for (const title of applied) io.stderr(`fixed: ${title}\n`);
  io.stdout(Buffer.from(text, "utf8"));
  return 0;
}
