// A template that does not parse cannot be analysed: commands that analyse one (caps, fix, format) say where it
// fails to parse, as `check` prints it, and exit 3 as `render` does on a template error.
import type { TemplateDocument } from "../document";
import type { CommandIO } from "../commandLine";

/** Writes each syntax error of doc to stderr and returns whether there was one. */
export function reportSyntaxErrors(doc: TemplateDocument, file: string, command: string, io: CommandIO): boolean {
  const errors = doc.problems.filter((p) => p.severity === "error");
  if (!errors.length) return false;
  io.stderr(`${command}: ${file} does not parse, so there is nothing to ${command === "caps" ? "probe" : command} until it does:\n`);
  for (const e of errors) {
    const p = doc.lines.positionAt(e.start);
    io.stderr(`  ${file}:${p.line + 1}:${p.character + 1}: error: ${e.message} [${e.code}]\n`);
  }
  return true;
}
