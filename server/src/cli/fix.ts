// `chat-template fix [--engines LIST] FILE`: the template with every safe fix for the engines'
// findings applied, on stdout byte for byte; each fix applied is named on stderr. A template with a
// security finding is refused (exit 1): fixes are for honest templates. A fix is safe
// when Jinja2 renders the rewritten template exactly as the original on every sample scenario.
import { BUILTIN_SCENARIOS, dialectsOf, fixAll, securityDiagnostics } from "../analysis";
import { DEFAULT_ENGINES, TemplateDocument } from "../document";
import { type CommandIO, parseArgs, UsageError } from "../commandLine";
import { parseEngineList } from "./check";
import { readTemplate } from "./readTemplate";

export const usage = "chat-template fix [--engines LIST] FILE";

export function fixCommand(argv: string[], io: CommandIO): number {
  const args = parseArgs(argv, { values: ["engines"] });
  if (args.positionals.length !== 1)
    throw new UsageError(args.positionals.length ? "give exactly one template file" : "no template file given");
  const engines = args.values.has("engines") ? parseEngineList(args.values.get("engines")!) : DEFAULT_ENGINES;
  const file = args.positionals[0];
  const doc = new TemplateDocument(readTemplate(file));
  const security = securityDiagnostics(doc).filter((d) => d.severity === "error");
  if (security.length) {
    io.stderr(`fix: refused: ${file} has security findings; a rewrite could make its payload run in more engines. Review it by hand:\n`);
    for (const d of security) {
      const p = doc.lines.positionAt(d.start);
      io.stderr(`  ${file}:${p.line + 1}:${p.character + 1}: ${d.message} [${d.code}]\n`);
    }
    return 1;
  }
  const { text, applied } = fixAll(doc, dialectsOf(engines), BUILTIN_SCENARIOS, { nullToolsProbe: true });
  for (const title of applied) io.stderr(`fixed: ${title}\n`);
  io.stdout(Buffer.from(text, "utf8"));
  return 0;
}
