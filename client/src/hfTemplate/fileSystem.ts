// The `hf-template:` file system: a chat template inside a Hugging Face tokenizer_config.json or
// chat_template.json as an editable template document, `…/tokenizer_config.json/chat_template.jinja` (the
// string) or `…/chat_template.tool_use.jinja` (a named one; the names as for GGUFs, client/src/gguf/templateName.ts).
// Saving writes the template back into the JSON file, escaped, with every other byte of the file kept.
import { readFileSync, writeFileSync } from "node:fs";
import { posix } from "node:path";
import * as vscode from "vscode";
import { findChatTemplate, HfConfigError, readChatTemplates, spliceChatTemplate } from "../../../server/src/hfConfig";
import { containerOf, EmbeddedTemplateFileSystem, embeddedTemplateUri } from "../gguf/embeddedTemplateFileSystem";

export const HF_TEMPLATE_SCHEME = "hf-template";

export function hfTemplateUri(config: vscode.Uri, name: string | null): vscode.Uri {
  return embeddedTemplateUri(HF_TEMPLATE_SCHEME, config, name);
}

function readConfig(file: vscode.Uri): string {
  try {
    return readFileSync(file.fsPath, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw vscode.FileSystemError.FileNotFound(file);
    throw e;
  }
}

/** Malformed JSON or a missing template is the file's problem, said with its place. */
function unavailable<T>(file: vscode.Uri, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof HfConfigError) throw vscode.FileSystemError.Unavailable(`${posix.basename(file.path)}:${e.message}`);
    throw e;
  }
}

export class HfTemplateFileSystem extends EmbeddedTemplateFileSystem {
  protected readonly notAFolder = "a tokenizer configuration is not a folder";
  protected readonly notRemovable = "a template inside a tokenizer configuration is removed by editing the JSON file";

  constructor() {
    super(HF_TEMPLATE_SCHEME);
  }

  protected templateText(file: vscode.Uri, name: string | null, uri: vscode.Uri): string {
    const text = readConfig(file);
    const t = findChatTemplate(
      unavailable(file, () => readChatTemplates(text)),
      name,
    );
    if (!t) throw vscode.FileSystemError.FileNotFound(uri);
    return t.template;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const { file, variant: name } = containerOf(HF_TEMPLATE_SCHEME, uri);
    const text = readConfig(file);
    const next = unavailable(file, () => spliceChatTemplate(text, name, Buffer.from(content).toString("utf8")));
    writeFileSync(file.fsPath, next);
    this.changes.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }
}
