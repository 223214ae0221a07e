// The conformance corpus: a verbatim copy of ../shared/corpus kept in test/fixtures/corpus so that a
// clean clone (CI) has it. test/unit/corpusCopy.test.ts fails if the copy drifts from the original.
import { join, resolve } from "node:path";

export const CORPUS_ROOT = resolve(__dirname, "../fixtures/corpus");

export function corpusDir(...sub: string[]): string {
  return join(CORPUS_ROOT, ...sub);
}
