// "Save into a copy of the GGUF": a new file with edited metadata whose tensor data is byte-identical.
// Tensor offsets are relative to the data section, so the data block is copied verbatim after the new,
// re-padded header; nothing is re-laid-out.
import { open, rename, rm } from "node:fs/promises";
import { resolve } from "node:path";
import { readGGUFHeader } from "./reader";
import { ValueType, type GGUFValue } from "./types";
import { alignmentOf, encodeHeader } from "./writer";

export type MetadataEdit = (metadata: Map<string, GGUFValue>) => void;

export interface CopyOptions {
  onProgress?: (copiedBytes: number, totalBytes: number) => void;
}

const CHUNK = 8 << 20;

/** Copies `src` to `dst` with `edit` applied to its metadata. `dst` may equal `src` (replaced atomically). */
export async function copyWithMetadata(src: string, dst: string, edit: MetadataEdit, options: CopyOptions = {}): Promise<void> {
  const header = readGGUFHeader(src);
  const metadata = new Map(header.metadata);
  edit(metadata);
  if (alignmentOf(metadata) !== header.alignment) {
    throw new Error(
      `general.alignment cannot change in a copy (tensor offsets depend on it): ${header.alignment} → ${alignmentOf(metadata)}`,
    );
  }
  const head = encodeHeader(metadata, header.tensors, header.version);
  const tmp = `${resolve(dst)}.tmp-${process.pid}`;
  const input = await open(src, "r");
  try {
    const output = await open(tmp, "w");
    try {
      await output.write(head);
      const total = header.fileSize - header.dataOffset;
      const buf = Buffer.allocUnsafe(CHUNK);
      let copied = 0;
      while (copied < total) {
        const { bytesRead } = await input.read(buf, 0, Math.min(CHUNK, total - copied), header.dataOffset + copied);
        if (bytesRead === 0) throw new Error(`${src}: file shrank while it was being copied`);
        await output.write(buf.subarray(0, bytesRead));
        copied += bytesRead;
        options.onProgress?.(copied, total);
      }
    } finally {
      await output.close();
    }
    await rename(tmp, dst);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  } finally {
    await input.close();
  }
}

/** Sets or removes (`text === undefined`) `tokenizer.chat_template`, or its named variant `tokenizer.chat_template.NAME`. */
export function setChatTemplate(text: string | undefined, name?: string): MetadataEdit {
  const key = name ? `tokenizer.chat_template.${name}` : "tokenizer.chat_template";
  return (metadata) => {
    if (text === undefined) metadata.delete(key);
    else metadata.set(key, { type: ValueType.STRING, value: text });
  };
}
