// `chat-template extract [--name NAME] FILE.gguf`: prints the chat template stored in a GGUF, byte for byte.
import { chatTemplate, chatTemplateNames, GGUFError, readGGUFHeader } from "../gguf";
import { type CommandIO, parseArgs, UsageError } from "../commandLine";

export const usage = "chat-template extract [--name NAME] FILE.gguf";

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
