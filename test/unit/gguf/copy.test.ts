import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { copyWithMetadata, setChatTemplate } from "../../../server/src/gguf/copy";
import { chatTemplate } from "../../../server/src/gguf/metadata";
import { readGGUFHeader } from "../../../server/src/gguf/reader";
import { gguf } from "../../../server/src/gguf/writer";
import { sampleMetadata, tempDir, writeSample } from "../../helpers/gguf";

const tmp = tempDir("gguf-copy");
after(tmp.cleanup);

function dataSection(file: string): Buffer {
  const h = readGGUFHeader(file);
  return readFileSync(file).subarray(h.dataOffset);
}

describe("copyWithMetadata", () => {
  it("changes the template and keeps tensor data byte-identical and aligned", async () => {
    const src = join(tmp.dir, "src.gguf");
    const dst = join(tmp.dir, "dst.gguf");
    writeSample(src);
    const longer = "{# edited #}" + "x".repeat(1000);
    const progress: number[] = [];
    await copyWithMetadata(src, dst, setChatTemplate(longer), { onProgress: (n) => progress.push(n) });
    const a = readGGUFHeader(src);
    const b = readGGUFHeader(dst);
    assert.equal(chatTemplate(b), longer);
    assert.equal(chatTemplate(b, "tool_use"), chatTemplate(a, "tool_use"));
    assert.notEqual(b.dataOffset, a.dataOffset, "the header grew");
    assert.equal(b.dataOffset % b.alignment, 0);
    assert.deepEqual(b.tensors, a.tensors, "same tensor infos and relative offsets");
    assert.ok(dataSection(dst).equals(dataSection(src)), "tensor data byte-identical");
    assert.equal(progress.at(-1), a.fileSize - a.dataOffset);
    const others = [...a.metadata].filter(([k]) => k !== "tokenizer.chat_template");
    assert.deepEqual(
      [...b.metadata].filter(([k]) => k !== "tokenizer.chat_template"),
      others,
    );
  });

  it("adds and removes named templates, and can replace the file in place", async () => {
    const file = join(tmp.dir, "inplace.gguf");
    writeSample(file);
    const before = dataSection(file);
    await copyWithMetadata(file, file, setChatTemplate("rag!", "rag"));
    await copyWithMetadata(file, file, setChatTemplate(undefined, "tool_use"));
    const h = readGGUFHeader(file);
    assert.equal(chatTemplate(h, "rag"), "rag!");
    assert.equal(chatTemplate(h, "tool_use"), undefined);
    assert.ok(dataSection(file).equals(before));
    assert.deepEqual(
      readdirSync(tmp.dir).filter((f) => f.includes(".tmp-")),
      [],
      "no temporary file left",
    );
  });

  it("refuses to change the alignment and leaves no partial output", async () => {
    const src = join(tmp.dir, "al.gguf");
    const dst = join(tmp.dir, "al-out.gguf");
    writeSample(src, sampleMetadata());
    await assert.rejects(
      copyWithMetadata(src, dst, (m) => m.set("general.alignment", gguf.u32(64))),
      /general\.alignment cannot change in a copy/,
    );
    assert.equal(existsSync(dst), false);
  });

  it("rejects a corrupt source with the reader's error", async () => {
    const bad = join(tmp.dir, "bad.gguf");
    writeSample(bad);
    const bytes = readFileSync(bad);
    writeFileSync(bad, bytes.subarray(0, 100));
    await assert.rejects(copyWithMetadata(bad, join(tmp.dir, "x.gguf"), setChatTemplate("t")), /truncated/);
  });
});
