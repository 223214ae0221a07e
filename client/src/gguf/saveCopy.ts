// "Save Template into a Copy of the GGUF": the edited template goes into a new file; every other
// metadata entry and all tensor data stay byte-identical (server/src/gguf/copy.ts copies the data block).
import { copyWithMetadata, setChatTemplate } from "../../../server/src/gguf";

export function saveTemplateCopy(
  source: string,
  variant: string | null,
  template: string,
  destination: string,
  onProgress?: (copiedBytes: number, totalBytes: number) => void,
): Promise<void> {
  return copyWithMetadata(source, destination, setChatTemplate(template, variant ?? undefined), { onProgress });
}
