import assert from "node:assert/strict";
import { readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readModelInfo } from "../../../client/src/gguf/modelInfo";
import { templateFileName, templateVariant, variantLabel } from "../../../client/src/gguf/templateName";
import { GGUFError } from "../../../server/src/gguf/types";
import { gguf } from "../../../server/src/gguf/writer";
import { tempDir, writeSample } from "../../helpers/gguf";
import { writeVocabGGUF } from "../../helpers/ggufVocab";

const tmp = tempDir("model-info");
after(tmp.cleanup);

describe("readModelInfo", () => {
  it("reads the default template first, then the named variants, and the bos/eos texts", () => {
    const file = join(tmp.dir, "sample.gguf");
    writeSample(file);
    const info = readModelInfo(file);
    assert.deepEqual(info.templates, [
      { name: null, text: "{% for m in messages %}{{ m.content }}{% endfor %}" },
      { name: "tool_use", text: "{{ tools | tojson }}" },
    ]);
    assert.equal(info.bosToken, "<s>");
    assert.equal(info.eosToken, "</s>");
  });

  it("lists the vocabulary's control and user-defined tokens as special", () => {
    const file = join(tmp.dir, "vocab.gguf");
    writeVocabGGUF(file, [["tokenizer.chat_template", gguf.str("{{ bos_token }}")]]);
    const info = readModelInfo(file);
    assert.deepEqual(info.specialTokens.sort(), ["<think>", "<|endoftext|>", "<|im_end|>", "<|im_start|>"]);
    assert.equal(info.bosToken, "<|endoftext|>");
    assert.equal(info.eosToken, "<|im_end|>");
  });

  it("a file without templates or special token ids has none, and empty bos/eos texts", () => {
    const file = join(tmp.dir, "bare.gguf");
    writeVocabGGUF(file);
    const meta = readModelInfo(file);
    assert.deepEqual(meta.templates, []);
    const noIds = join(tmp.dir, "noids.gguf");
    writeSample(noIds, new Map([["general.architecture", gguf.str("x")]]));
    assert.deepEqual({ ...readModelInfo(noIds), file: "" }, { file: "", templates: [], bosToken: "", eosToken: "", specialTokens: [] });
  });

  it("a truncated or corrupt file is a GGUFError that says where", () => {
    const file = join(tmp.dir, "cut.gguf");
    writeSample(file);
    truncateSync(file, 100);
    assert.throws(
      () => readModelInfo(file),
      (e: unknown) => e instanceof GGUFError && /truncated|ended early|cannot fit/.test(e.message) && /at byte offset \d+/.test(e.message),
    );
    const junk = join(tmp.dir, "junk.gguf");
    writeFileSync(junk, Buffer.concat([Buffer.from("GGML"), readFileSync(file).subarray(4)]));
    assert.throws(() => readModelInfo(junk), /not a GGUF file/);
  });
});

describe("template file names", () => {
  it("name the metadata key, and read back", () => {
    assert.equal(templateFileName(null), "chat_template.jinja");
    assert.equal(templateFileName("tool_use"), "chat_template.tool_use.jinja");
    assert.equal(templateVariant("chat_template.jinja"), null);
    assert.equal(templateVariant("chat_template.tool_use.jinja"), "tool_use");
    assert.equal(templateVariant("chat_template.a.b.jinja"), "a.b");
    assert.equal(templateVariant("model.gguf"), undefined);
    assert.equal(variantLabel("rag"), "tokenizer.chat_template.rag");
  });
});
