// A chat template stored inside another file (a GGUF, a tokenizer_config.json) as an editable document:
// `…/<file>/chat_template.jinja` is the default template, `…/chat_template.<name>.jinja` a named one
// (templateName.ts). Each container kind says how its templates are read and whether, and how, one is saved.
import { statSync } from "node:fs";
import { posix } from "node:path";
import * as vscode from "vscode";
import { templateFileName, templateVariant } from "./templateName";

/** The document of the `variant` template (null: the default) inside `container`. */
export function embeddedTemplateUri(scheme: string, container: vscode.Uri, variant: string | null): vscode.Uri {
  return container.with({ scheme, path: posix.join(container.path, templateFileName(variant)) });
}

/** The file and template variant behind an embedded template's URI. */
export function containerOf(scheme: string, uri: vscode.Uri): { file: vscode.Uri; variant: string | null } {
  const variant = templateVariant(posix.basename(uri.path));
  if (uri.scheme !== scheme || variant === undefined) throw vscode.FileSystemError.FileNotFound(uri);
  return { file: uri.with({ scheme: "file", path: posix.dirname(uri.path) }), variant };
}

export abstract class EmbeddedTemplateFileSystem implements vscode.FileSystemProvider {
  protected readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;

  constructor(private readonly scheme: string) {}

  /** The template's text; throws a FileSystemError saying why it cannot be read. */
  protected abstract templateText(file: vscode.Uri, variant: string | null, uri: vscode.Uri): string;
  abstract writeFile(uri: vscode.Uri, content: Uint8Array): void;
  /** Why the container cannot be browsed or created in, and why its templates cannot be removed or renamed. */
  protected abstract readonly notAFolder: string;
  protected abstract readonly notRemovable: string;

  private text(uri: vscode.Uri): string {
    const { file, variant } = containerOf(this.scheme, uri);
    return this.templateText(file, variant, uri);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => {});
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const text = this.text(uri);
    const st = statSync(containerOf(this.scheme, uri).file.fsPath);
    return { type: vscode.FileType.File, ctime: st.ctimeMs, mtime: st.mtimeMs, size: Buffer.byteLength(text) };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return Buffer.from(this.text(uri), "utf8");
  }

  readDirectory(): never {
    throw vscode.FileSystemError.NoPermissions(this.notAFolder);
  }

  createDirectory(): never {
    return this.readDirectory();
  }

  delete(): never {
    throw vscode.FileSystemError.NoPermissions(this.notRemovable);
  }

  rename(): never {
    return this.delete();
  }
}
