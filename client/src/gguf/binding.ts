// A template bound to a GGUF gets the file's bos/eos texts, special tokens and tokenizer. Bindings are
// cached per file (and dropped when the file changes on disk), so the header is read once and the
// preview sees the same binding, with its tokenizer loaded once, across renders.
import { statSync } from "node:fs";
import { basename } from "node:path";
import type { ModelBinding, Tokenizer } from "./modelBinding";
import { readModelInfo, type ModelInfo } from "./modelInfo";
import { loadGGUFTokenizer, type GGUFTokenizer } from "./tokenizer";

export interface BoundModel {
  info: ModelInfo;
  binding: ModelBinding;
}

const MAX_BOUND = 4;
const cache = new Map<string, { stamp: string; bound: BoundModel; dispose(): void }>();

/** The file's info and binding; throws GGUFError for a file that is not a well-formed GGUF. */
export function boundModel(file: string, loadTokenizer: (file: string) => Promise<GGUFTokenizer> = loadGGUFTokenizer): BoundModel {
  const st = statSync(file);
  const stamp = `${st.size}:${st.mtimeMs}`;
  const hit = cache.get(file);
  if (hit?.stamp === stamp) return hit.bound;
  if (hit) forget(file);
  const info = readModelInfo(file);
  let tokenizer: Promise<GGUFTokenizer> | null = null;
  const binding: ModelBinding = {
    label: basename(file),
    bosToken: info.bosToken,
    eosToken: info.eosToken,
    specialTokens: info.specialTokens,
    tokenizer: (): Promise<Tokenizer> => (tokenizer ??= loadTokenizer(file)),
  };
  if (cache.size >= MAX_BOUND) forget(cache.keys().next().value!);
  const bound = { info, binding };
  cache.set(file, {
    stamp,
    bound,
    dispose: () =>
      void tokenizer?.then(
        (t) => t.dispose(),
        () => {},
      ),
  });
  return bound;
}

function forget(file: string): void {
  cache.get(file)?.dispose();
  cache.delete(file);
}
