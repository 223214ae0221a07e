// `chat-template extract [--name NAME] FILE.gguf`: prints the chat template stored in a GGUF, byte for byte.
import { chatTemplate, chatTemplateNames, GGUFError, readGGUFHeader } from "../gguf";
import { type CommandHelp, type CommandIO, parseArgs, UsageError } from "../commandLine";

export const help: CommandHelp = {
  usage: "chat-template extract [--name NAME] FILE.gguf",
  summary: "print the chat template stored in a GGUF, byte for byte",
  description:
    "Reads only the GGUF's header (never its tensor data) and prints tokenizer.chat_template, or the named template " +
    "tokenizer.chat_template.NAME, exactly as stored, so it can be edited, checked and diffed as a file.",
  options: [["--name NAME", "a named template such as tool_use (the error lists the names the file has)"]],
  examples: ["chat-template extract model.gguf > chat_template.jinja", "chat-template extract --name tool_use model.gguf"],
  exitCodes: [
    [0, "printed"],
    [1, "the file has no such template, or is corrupt or truncated (the message gives the byte offset and the field)"],
    [2, "usage error"],
  ],
};

export function extractCommand(argv: string[], io: CommandIO): number {
  const args = parseArgs(argv, { values: ["name"] });
  if (args.positionals.length !== 1) throw new UsageError("give exactly one GGUF file");
  const [file] = args.positionals;
  const name = args.values.get("name");
  let header;
  try {
    header = readGGUFHeader(file);
  } catch (e) {
    if (!(e instanceof GGUFError)) throw e;
    io.stderr(`chat-template extract: ${e.message}\n`);
    return 1;
  }
  const text = chatTemplate(header, name);
  if (text === undefined) {
    const names = chatTemplateNames(header);
    const others = names.length ? ` (named templates: ${names.join(", ")})` : "";
    io.stderr(`chat-template extract: ${file} has no ${name ? `chat template named '${name}'` : "tokenizer.chat_template"}${others}\n`);
    return 1;
  }
  io.stdout(text);
  return 0;
}
