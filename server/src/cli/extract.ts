// `chat-template extract [--name NAME] FILE.gguf|FILE.json`: prints the chat template stored in a GGUF, byte
// for byte, or the one in a Hugging Face tokenizer_config.json / chat_template.json, unescaped.
import { chatTemplate, chatTemplateNames, GGUFError, readGGUFHeader } from "../gguf";
import { type CommandHelp, type CommandIO, parseArgs, UsageError } from "../commandLine";
import { isHfConfigFile, readHfConfig } from "./hfConfigFile";
import { pickChatTemplate } from "../hfConfig";

export const help: CommandHelp = {
  usage: "chat-template extract [--name NAME] FILE.gguf|tokenizer_config.json|chat_template.json",
  summary: "print the chat template stored in a GGUF or a tokenizer_config.json, byte for byte",
  description:
    "Reads only the GGUF's header (never its tensor data) and prints tokenizer.chat_template, or the named template " +
    "tokenizer.chat_template.NAME, exactly as stored, so it can be edited, checked and diffed as a file. From a Hugging " +
    "Face tokenizer_config.json or chat_template.json it prints the chat_template (the single string, else 'default').",
  options: [["--name NAME", "a named template such as tool_use (the error lists the names the file has)"]],
  examples: ["chat-template extract model.gguf > chat_template.jinja", "chat-template extract --name tool_use model.gguf"],
  exitCodes: [
    [0, "printed"],
    [1, "the file has no such template, or is corrupt or truncated (the message gives the byte offset and the field)"],
    [2, "usage error"],
  ],
};

function extractFromHfConfig(file: string, name: string | undefined, io: CommandIO): number {
  const { templates } = readHfConfig(file);
  const t = pickChatTemplate(templates, name);
  if (!t) {
    const names = templates.flatMap((x) => (x.name === null ? [] : [x.name]));
    io.stderr(`chat-template extract: ${file} has no chat template named '${name}' (named templates: ${names.join(", ") || "none"})\n`);
    return 1;
  }
  io.stdout(t.template);
  return 0;
}

export function extractCommand(argv: string[], io: CommandIO): number {
  const args = parseArgs(argv, { values: ["name"] });
  if (args.positionals.length !== 1) throw new UsageError("give exactly one GGUF file");
  const [file] = args.positionals;
  const name = args.values.get("name");
  if (isHfConfigFile(file)) return extractFromHfConfig(file, name, io);
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
