// The `gguf-template:` file system: a chat template inside a GGUF as an editable document bound to its
// file. Reading goes through the header only. Saving in place is refused on purpose: rewriting a
// multi-gigabyte model on every Ctrl+S is never what was meant, so the edits go out through "Save
// Template into a Copy of the GGUF".
import * as vscode from "vscode";
import { GGUFError } from "../../../server/src/gguf";
import { boundModel } from "./binding";
import { containerOf, EmbeddedTemplateFileSystem, embeddedTemplateUri } from "./embeddedTemplateFileSystem";

export const GGUF_TEMPLATE_SCHEME = "gguf-template";

export function templateUri(gguf: vscode.Uri, variant: string | null): vscode.Uri {
  return embeddedTemplateUri(GGUF_TEMPLATE_SCHEME, gguf, variant);
}

/** The GGUF file and template variant behind a `gguf-template:` URI. */
export function ggufOf(uri: vscode.Uri): { file: vscode.Uri; variant: string | null } {
  return containerOf(GGUF_TEMPLATE_SCHEME, uri);
}

const SAVE_INTO_COPY = "a template inside a GGUF is saved with 'Chat Template: Save Template into a Copy of the GGUF'";

export class GGUFTemplateFileSystem extends EmbeddedTemplateFileSystem {
  constructor() {
    super(GGUF_TEMPLATE_SCHEME);
  }

  protected templateText(file: vscode.Uri, variant: string | null, uri: vscode.Uri): string {
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

  protected readonly notAFolder = "a GGUF is not a folder";
  protected readonly notRemovable = SAVE_INTO_COPY;

  writeFile(): never {
    throw vscode.FileSystemError.NoPermissions(SAVE_INTO_COPY);
  }
}
