// A Hugging Face tokenizer_config.json or chat_template.json named on the command line: its chat templates,
// or a usage error (exit 2) that says where the file is malformed.
import { readFileSync } from "node:fs";
import { UsageError } from "../commandLine";
import { type HfChatTemplate, HfConfigError, readChatTemplates } from "../hfConfig";

/** Any .json file: tokenizer_config.json, chat_template.json or a renamed copy of one. */
export const isHfConfigFile = (file: string): boolean => /\.json$/i.test(file);

export function readHfConfig(file: string): { text: string; templates: HfChatTemplate[] } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return { text, templates: readChatTemplates(text) };
  } catch (e) {
    if (e instanceof HfConfigError) throw new UsageError(`${file}:${e.message}`);
    throw e;
  }
}
