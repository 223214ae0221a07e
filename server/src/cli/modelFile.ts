// A GGUF model as `check` reads it: its embedded chat template and its tokenizer (vocabulary, special
// tokens, whether it adds BOS), for the checks of a template against the model it serves.
import type { ModelTokenizer } from "../analysis";
import { UsageError } from "../commandLine";
import { chatTemplate, GGUFError, readGGUFHeader, vocabularyOf } from "../gguf";

export interface ModelFile {
  template: string | undefined;
  tokenizer: ModelTokenizer;
}

export function readModelFile(file: string): ModelFile {
  try {
    const h = readGGUFHeader(file);
    return { template: chatTemplate(h), tokenizer: vocabularyOf(h) };
  } catch (e) {
    if (e instanceof GGUFError) throw new UsageError(e.message);
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}
