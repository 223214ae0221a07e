// The `gguf-template:` file system: a chat template inside a GGUF as an editable document bound to its
// file (see templateName.ts for the paths). Reading goes through the header only. Saving in place is
// refused on purpose: rewriting a multi-gigabyte model on every Ctrl+S is never what was meant, so the
// edits go out through "Save Template into a Copy of the GGUF".
import { statSync } from "node:fs";
import { posix } from "node:path";
import * as vscode from "vscode";
import { GGUFError } from "../../../server/src/gguf";
import { boundModel } from "./binding";
import { templateFileName, templateVariant } from "./templateName";

export const GGUF_TEMPLATE_SCHEME = "gguf-template";

export function templateUri(gguf: vscode.Uri, variant: string | null): vscode.Uri {
  return gguf.with({ scheme: GGUF_TEMPLATE_SCHEME, path: posix.join(gguf.path, templateFileName(variant)) });
}

/** The GGUF file and template variant behind a `gguf-template:` URI. */
export function ggufOf(uri: vscode.Uri): { file: vscode.Uri; variant: string | null } {
  const variant = templateVariant(posix.basename(uri.path));
  if (uri.scheme !== GGUF_TEMPLATE_SCHEME || variant === undefined) throw vscode.FileSystemError.FileNotFound(uri);
  return { file: uri.with({ scheme: "file", path: posix.dirname(uri.path) }), variant };
}

function templateText(uri: vscode.Uri): string {
  const { file, variant } = ggufOf(uri);
  let templates;
  try {
    templates = boundModel(file.fsPath).info.templates;
  } catch (e) {
    if (e instanceof GGUFError) throw vscode.FileSystemError.Unavailable(e.message);
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw vscode.FileSystemError.FileNotFound(file);
    throw e;
  }
  const t = templates.find((x) => x.name === variant);
  // a GGUF without a template opens an empty one, which a copy can then carry
  if (!t && variant !== null) throw vscode.FileSystemError.FileNotFound(uri);
  return t?.text ?? "";
}

export class GGUFTemplateFileSystem implements vscode.FileSystemProvider {
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => {});
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const text = templateText(uri);
    const st = statSync(ggufOf(uri).file.fsPath);
    return { type: vscode.FileType.File, ctime: st.ctimeMs, mtime: st.mtimeMs, size: Buffer.byteLength(text) };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return Buffer.from(templateText(uri), "utf8");
  }

  writeFile(): never {
    throw vscode.FileSystemError.NoPermissions(
      "a template inside a GGUF is saved with 'Chat Template: Save Template into a Copy of the GGUF'",
    );
  }

  readDirectory(): never {
    throw vscode.FileSystemError.NoPermissions("a GGUF is not a folder");
  }

  createDirectory(): never {
    return this.writeFile();
  }

  delete(): never {
    return this.writeFile();
  }

  rename(): never {
    return this.writeFile();
  }
}
