// The `hf-template:` file system: a chat template inside a Hugging Face tokenizer_config.json or
// chat_template.json as an editable template document, `…/tokenizer_config.json/chat_template.jinja` (the
// string) or `…/chat_template.tool_use.jinja` (a named one; the names as for GGUFs, client/src/gguf/templateName.ts).
// Saving writes the template back into the JSON file, escaped, with every other byte of the file kept.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { posix } from "node:path";
import * as vscode from "vscode";
import { findChatTemplate, HfConfigError, readChatTemplates, spliceChatTemplate } from "../../../server/src/hfConfig";
import { templateFileName, templateVariant } from "../gguf/templateName";

export const HF_TEMPLATE_SCHEME = "hf-template";

export function hfTemplateUri(config: vscode.Uri, name: string | null): vscode.Uri {
  return config.with({ scheme: HF_TEMPLATE_SCHEME, path: posix.join(config.path, templateFileName(name)) });
}

/** The JSON file and template name behind an `hf-template:` URI. */
export function hfConfigOf(uri: vscode.Uri): { file: vscode.Uri; name: string | null } {
  const name = templateVariant(posix.basename(uri.path));
  if (uri.scheme !== HF_TEMPLATE_SCHEME || name === undefined) throw vscode.FileSystemError.FileNotFound(uri);
  return { file: uri.with({ scheme: "file", path: posix.dirname(uri.path) }), name };
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

function templateText(uri: vscode.Uri): string {
  const { file, name } = hfConfigOf(uri);
  const text = readConfig(file);
  const t = findChatTemplate(
    unavailable(file, () => readChatTemplates(text)),
    name,
  );
  if (!t) throw vscode.FileSystemError.FileNotFound(uri);
  return t.template;
}

export class HfTemplateFileSystem implements vscode.FileSystemProvider {
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => {});
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const text = templateText(uri);
    const st = statSync(hfConfigOf(uri).file.fsPath);
    return { type: vscode.FileType.File, ctime: st.ctimeMs, mtime: st.mtimeMs, size: Buffer.byteLength(text) };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return Buffer.from(templateText(uri), "utf8");
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const { file, name } = hfConfigOf(uri);
    const text = readConfig(file);
    const next = unavailable(file, () => spliceChatTemplate(text, name, Buffer.from(content).toString("utf8")));
    writeFileSync(file.fsPath, next);
    this.changes.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  readDirectory(): never {
    throw vscode.FileSystemError.NoPermissions("a tokenizer configuration is not a folder");
  }

  createDirectory(): never {
    return this.readDirectory();
  }

  delete(): never {
    throw vscode.FileSystemError.NoPermissions("a template inside a tokenizer configuration is removed by editing the JSON file");
  }

  rename(): never {
    return this.delete();
  }
}
