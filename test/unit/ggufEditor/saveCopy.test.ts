import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readModelInfo } from "../../../client/src/gguf/modelInfo";
import { saveTemplateCopy } from "../../../client/src/gguf/saveCopy";
import { readGGUFHeader } from "../../../server/src/gguf/reader";
import { sampleMetadata, tempDir, writeSample } from "../../helpers/gguf";

const tmp = tempDir("save-copy");
after(tmp.cleanup);

const data = (file: string) => readFileSync(file).subarray(readGGUFHeader(file).dataOffset);

describe("Save Template into a Copy of the GGUF", () => {
  for (const variant of [null, "tool_use"]) {
    it(`writes the edited ${variant ?? "default"} template and keeps everything else byte-identical`, async () => {
      const src = join(tmp.dir, `src-${variant}.gguf`);
      const dst = join(tmp.dir, `dst-${variant}.gguf`);
      writeSample(src);
      const edited = "{%- for m in messages %}<|{{ m.role }}|>{{ m.content }}\n{%- endfor %}" + "é".repeat(300);
      await saveTemplateCopy(src, variant, edited, dst);
      const before = readGGUFHeader(src);
      const after = readGGUFHeader(dst);
      const key = variant ? `tokenizer.chat_template.${variant}` : "tokenizer.chat_template";
      assert.deepEqual(after.metadata.get(key), { type: 8, value: edited });
      assert.deepEqual([...after.metadata.keys()], [...before.metadata.keys()], "same keys in the same order");
      for (const [k, v] of before.metadata) if (k !== key) assert.deepEqual(after.metadata.get(k), v, k);
      assert.deepEqual(after.tensors, before.tensors);
      assert.ok(data(dst).equals(data(src)), "tensor data unchanged");
      assert.notEqual(readModelInfo(src).templates.find((t) => t.name === variant)?.text, edited, "the source is untouched");
    });
  }

  it("a template added to a file that had none", async () => {
    const src = join(tmp.dir, "none.gguf");
    const dst = join(tmp.dir, "none-edited.gguf");
    const metadata = sampleMetadata();
    metadata.delete("tokenizer.chat_template");
    metadata.delete("tokenizer.chat_template.tool_use");
    writeSample(src, metadata);
    await saveTemplateCopy(src, null, "{{ 'new' }}", dst);
    assert.deepEqual(readModelInfo(dst).templates, [{ name: null, text: "{{ 'new' }}" }]);
    assert.ok(data(dst).equals(data(src)));
  });
});
