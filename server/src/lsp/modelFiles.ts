// The model a template serves, for the `model/…` checks: the GGUF a `gguf-template:` document was opened
// from (`…/model.gguf/chat_template.jinja`, see client/src/gguf/templateName.ts), else the GGUF the
// chatTemplate.preview.tokenizerModel setting names (relative to the workspace folder). Each file's
// vocabulary is read once, and again when the file changes on disk.
import { statSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readGGUFHeader, type Vocabulary, vocabularyOf } from "../gguf";

const GGUF_TEMPLATE_SCHEME = "gguf-template:";
const KEPT = 4;

export type ModelLookup = { vocabulary: Vocabulary; file: string } | { error: string; file: string };

export class ModelFiles {
  private readonly cache = new Map<string, { stamp: string; vocabulary: Vocabulary }>();

  /** `tokenizerModel`: the setting's value; `root`: the workspace folder's path, or null. */
  constructor(
    public tokenizerModel: string,
    public root: string | null,
  ) {}

  /** The GGUF behind a document, or null where it has none. */
  fileOf(uri: string): string | null {
    if (uri.startsWith(GGUF_TEMPLATE_SCHEME)) {
      // the same path as a file: URI, so percent-escapes and drive letters read as the platform's
      const gguf = dirname(fileURLToPath(`file:${uri.slice(GGUF_TEMPLATE_SCHEME.length)}`));
      return /\.gguf$/i.test(gguf) ? gguf : null;
    }
    const file = this.tokenizerModel;
    if (!file) return null;
    return isAbsolute(file) || !this.root ? file : join(this.root, file);
  }

  /** The vocabulary of a model file, or why it could not be read. */
  read(file: string): ModelLookup {
    try {
      const st = statSync(file);
      const stamp = `${st.size}:${st.mtimeMs}`;
      const hit = this.cache.get(file);
      if (hit?.stamp === stamp) return { vocabulary: hit.vocabulary, file };
      const vocabulary = vocabularyOf(readGGUFHeader(file));
      this.cache.delete(file);
      this.cache.set(file, { stamp, vocabulary });
      if (this.cache.size > KEPT) this.cache.delete(this.cache.keys().next().value!);
      return { vocabulary, file };
    } catch (e) {
      return { error: (e as Error).message, file };
    }
  }
}

/** A workspace folder URI as a path (null for none or another scheme). */
export function folderPath(uri: string | null | undefined): string | null {
  return uri?.startsWith("file:") ? fileURLToPath(uri) : null;
}
