import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { chatTemplate, chatTemplateNames, numberValue, specialToken, stringValue } from "../../../server/src/gguf/metadata";
import { readGGUFHeader } from "../../../server/src/gguf/reader";
import { ValueType, type GGUFValue } from "../../../server/src/gguf/types";
import { gguf, writeGGUF } from "../../../server/src/gguf/writer";
import { sampleMetadata, sampleTensors, tempDir, writeSample } from "../../helpers/gguf";

const tmp = tempDir("gguf");
after(tmp.cleanup);

describe("GGUF writer and reader", () => {
  it("round-trips every metadata type and the tensor infos", () => {
    const file = join(tmp.dir, "rt.gguf");
    writeSample(file);
    const h = readGGUFHeader(file);
    assert.equal(h.version, 3);
    assert.deepEqual([...h.metadata.keys()], [...sampleMetadata().keys()]);
    assert.deepEqual(h.metadata, sampleMetadata());
    assert.deepEqual(
      h.tensors.map((t) => [t.name, t.dims, t.type]),
      sampleTensors().map((t) => [t.name, t.dims, t.type]),
    );
  });

  it("aligns the data section and every tensor, and the bytes are where the offsets say", () => {
    for (const alignment of [32, 64]) {
      const file = join(tmp.dir, `al${alignment}.gguf`);
      const md = sampleMetadata();
      if (alignment !== 32) md.set("general.alignment", gguf.u32(alignment));
      writeSample(file, md);
      const h = readGGUFHeader(file);
      assert.equal(h.alignment, alignment);
      assert.equal(h.dataOffset % alignment, 0);
      const bytes = readFileSync(file);
      assert.equal(bytes.length % alignment, 0, "the file is padded to the alignment");
      sampleTensors().forEach((t, i) => {
        const info = h.tensors[i];
        assert.equal(info.offset % alignment, 0);
        const at = h.dataOffset + info.offset;
        assert.deepEqual(new Uint8Array(bytes.subarray(at, at + t.data.byteLength)), t.data);
      });
    }
  });

  it("reads templates, named variants and special tokens", () => {
    const file = join(tmp.dir, "meta.gguf");
    writeSample(file);
    const h = readGGUFHeader(file);
    assert.equal(chatTemplate(h), "{% for m in messages %}{{ m.content }}{% endfor %}");
    assert.equal(chatTemplate(h, "tool_use"), "{{ tools | tojson }}");
    assert.equal(chatTemplate(h, "rag"), undefined);
    assert.deepEqual(chatTemplateNames(h), ["tool_use"]);
    assert.deepEqual(specialToken(h, "bos"), { id: 0, text: "<s>" });
    assert.deepEqual(specialToken(h, "eos"), { id: 1, text: "</s>" });
    assert.equal(specialToken(h, "pad"), undefined);
    assert.equal(stringValue(h, "general.name"), "ünïcode ✓ name");
    assert.equal(numberValue(h, "test.big"), 2 ** 40 + 3);
    assert.equal(numberValue(h, "general.name"), undefined);
  });

  it("writes nested arrays", () => {
    const file = join(tmp.dir, "nested.gguf");
    const md = new Map(sampleMetadata());
    const nested: GGUFValue = {
      type: ValueType.ARRAY,
      itemType: ValueType.ARRAY,
      value: [gguf.arr(ValueType.UINT8, [1, 2]), gguf.arr(ValueType.STRING, ["x"])],
    };
    md.set("test.nested", nested);
    writeSample(file, md);
    assert.deepEqual(readGGUFHeader(file).metadata.get("test.nested"), nested);
  });

  it("refuses tensor data whose size does not match its shape", () => {
    const bad = sampleTensors();
    bad[0] = { ...bad[0], dims: [4, 5] };
    assert.throws(() => writeGGUF(join(tmp.dir, "bad.gguf"), sampleMetadata(), bad), /tensor 'a\.weight': 60 bytes given, shape needs 80/);
  });
});
