// `chat-template format [--write | --check] [--indent N] FILE…`: the canonical layout of each template, applied
// only where every engine renders every sample scenario (and probes its caps) exactly as before; what the proof
// leaves as it is, because it would change the output, is counted on stderr (listed with --explain).
import { writeFileSync } from "node:fs";
import { type CommandHelp, type CommandIO, intOption, parseArgs, UsageError } from "../commandLine";
import { TemplateDocument } from "../document";
import { formatTemplate } from "../services";
import { readTemplate } from "./readTemplate";
import { reportSyntaxErrors } from "./syntaxErrors";

export const help: CommandHelp = {
  usage: "chat-template format [--write | --check] [--indent N] [--explain] FILE…",
  summary: "lay templates out canonically, only where no engine's output changes",
  description:
    "Indents block bodies by depth, puts each statement on its own line and normalizes the spacing inside `{{ }}` " +
    "and `{% %}` (one space inside the delimiters and around operators, none around `.`, `|` and keyword " +
    "arguments' `=`; string quotes and whitespace-control signs kept). A change is kept only where the lexer " +
    "shows Jinja2 emits the same text for every input and every engine (Jinja2, llama.cpp, llama-server, minja, " +
    "@huggingface/jinja) renders every sample scenario, and infers the same caps, exactly as before; the rest is " +
    "left as it is and counted on stderr. Prints the formatted templates on stdout, or rewrites them (--write), " +
    "or only checks them (--check). Formatting a formatted template changes nothing.",
  options: [
    ["--write", "rewrite each file in place (the files changed are named on stderr)"],
    ["--check", "print nothing; exit 1 when a file is not formatted (named on stderr)"],
    ["--indent N", "spaces per block level (default 4)"],
    ["--explain", "list each region left as it is, with its line and the reason, on stderr"],
  ],
  examples: [
    "chat-template format chat_template.jinja",
    "chat-template format --write templates/*.jinja",
    "chat-template format --check --indent 2 chat_template.jinja",
  ],
  exitCodes: [
    [0, "formatted (printed or written), or --check: every file is formatted"],
    [1, "--check: a file is not formatted (named on stderr)"],
    [2, "usage error, or a file cannot be read"],
    [3, "a file does not parse (the errors, with line and column, on stderr); it is left as it is"],
  ],
};

export function formatCommand(argv: string[], io: CommandIO): number {
  const args = parseArgs(argv, { values: ["indent"], switches: ["write", "check", "explain"] });
  const write = args.switches.has("write");
  const check = args.switches.has("check");
  if (write && check) throw new UsageError("give --write or --check, not both");
  if (args.positionals.length === 0) throw new UsageError("no template file given");
  const indentWidth = intOption("indent", args.values.get("indent"), 1, 16) ?? 4;
  const texts = args.positionals.map((file) => [file, readTemplate(file)] as const);
  let unparsed = false;
  let unformatted = false;
  for (const [file, text] of texts) {
    const doc = new TemplateDocument(text);
    if (reportSyntaxErrors(doc, file, "format", io)) {
      unparsed = true;
      continue;
    }
    const r = formatTemplate(doc, { indentWidth });
    if (r.refused) io.stderr(`format: ${file}: ${r.refused}\n`);
    if (r.leftAlone.length) {
      io.stderr(`format: ${file}: ${r.leftAlone.length} region(s) left as they are: formatting them would change the output\n`);
      if (args.switches.has("explain")) {
        // the regions are places in the formatted text
        const lines = new TemplateDocument(r.text).lines;
        for (const l of r.leftAlone) {
          const p = lines.positionAt(l.start);
          io.stderr(`  ${file}:${p.line + 1}:${p.character + 1}: ${l.reason}\n`);
        }
      }
    }
    if (check) {
      if (r.text !== text) {
        io.stderr(`format: ${file} is not formatted\n`);
        unformatted = true;
      }
    } else if (write) {
      if (r.text !== text) {
        writeFileSync(file, r.text);
        io.stderr(`formatted ${file}\n`);
      }
    } else io.stdout(Buffer.from(r.text, "utf8"));
  }
  return unparsed ? 3 : unformatted ? 1 : 0;
}
