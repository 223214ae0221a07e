// `chat-template fix [--engines LIST] FILE`: the template with every safe fix for the engines'
// findings applied, on stdout byte for byte; each fix applied is named on stderr. A template with a
// security finding is refused (exit 1): fixes are for honest templates; one that does not parse, exit 3. A fix is safe
// when Jinja2 renders the rewritten template exactly as the original on every sample scenario.
import { BUILTIN_SCENARIOS, dialectsOf, fixAll, securityDiagnostics } from "../analysis";
import { DEFAULT_ENGINES } from "../dialects";
import { TemplateDocument } from "../document";
import { type CommandHelp, type CommandIO, parseArgs, UsageError } from "../commandLine";
import { parseEngineList } from "./check";
import { readTemplate } from "./readTemplate";
import { reportSyntaxErrors } from "./syntaxErrors";

export const help: CommandHelp = {
  usage: "chat-template fix [--engines LIST] FILE",
  summary: "print the template with every safe fix for the engines' findings applied",
  description:
    "Rewrites what an engine cannot run into what every engine reads the same way (x.0 to x[0], a member test on a " +
    "null tool guarded with `if tool`, `a // b`, `**`, `%` formatting, loop.cycle, raw blocks, `is undefined`…) and " +
    "prints the whole template, byte for byte, on stdout; stderr names each fix applied. A fix is applied only when " +
    "Jinja2 renders the rewritten template exactly as the original on every sample scenario. A template with a " +
    "security finding is refused: a rewrite could make its payload run in one more engine.",
  options: [["--engines LIST", "comma-separated engines whose findings to fix (default jinja2,llamacpp,minja)"]],
  examples: ["chat-template fix chat_template.jinja > fixed.jinja", "chat-template fix --engines minja chat_template.jinja"],
  exitCodes: [
    [0, "the template is printed, with or without fixes"],
    [1, "refused: the template has a security finding (named on stderr), nothing printed"],
    [2, "usage error, or the file cannot be read"],
    [3, "the template does not parse (the errors, with line and column, on stderr), nothing printed"],
  ],
};

export function fixCommand(argv: string[], io: CommandIO): number {
  const args = parseArgs(argv, { values: ["engines"] });
  if (args.positionals.length !== 1)
    throw new UsageError(args.positionals.length ? "give exactly one template file" : "no template file given");
  const engines = args.values.has("engines") ? parseEngineList(args.values.get("engines")!) : DEFAULT_ENGINES;
  const file = args.positionals[0];
  const doc = new TemplateDocument(readTemplate(file));
  if (reportSyntaxErrors(doc, file, "fix", io)) return 3;
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
