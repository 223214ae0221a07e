// Token counts with llama.cpp's tokenizer on a generated vocabulary, alone and through the preview.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { boundModel } from "../../../client/src/gguf/binding";
import { loadGGUFTokenizer } from "../../../client/src/gguf/tokenizer";
import type { PreviewUpdate } from "../../../client/src/preview/protocol";
import { readFileSync, writeFileSync } from "node:fs";
import { tempDir } from "../../helpers/gguf";
import { writeVocabGGUF } from "../../helpers/ggufVocab";
import { recordedPreview } from "../../helpers/preview";
import { gguf } from "../../../server/src/gguf/writer";

const tmp = tempDir("token-count");
after(tmp.cleanup);
const file = join(tmp.dir, "vocab.gguf");
writeVocabGGUF(file);

describe("GGUF tokenizer", () => {
  it("counts as llama.cpp tokenizes: merges apply, special tokens are one token each, no BOS added", async () => {
    const t = await loadGGUFTokenizer(file);
    assert.equal(await t.count("hello"), 1);
    assert.equal(await t.count("hellohello"), 2);
    assert.equal(await t.count("hi"), 2);
    assert.equal(await t.count("<|im_start|>hello<|im_end|>"), 3);
    assert.equal(await t.count(""), 0);
    const pieces = await t.tokenize("<|im_start|>hello<|im_end|>");
    assert.deepEqual(
      pieces.map((p) => [p.text, p.special]),
      [
        ["<|im_start|>", true],
        ["hello", false],
        ["<|im_end|>", true],
      ],
    );
    assert.equal(pieces.map((p) => p.text).join(""), "<|im_start|>hello<|im_end|>");
    await t.dispose();
  });

  it("a malformed file is refused with our reader's error before llama.cpp sees it", async () => {
    const bad = join(tmp.dir, "not-a-model.gguf");
    writeFileSync(bad, "GGUF but not really");
    await assert.rejects(loadGGUFTokenizer(bad), /not-a-model\.gguf: unsupported GGUF version \d+ \(at byte offset 4\)/);
  });

  it("a well-formed file whose vocabulary llama.cpp cannot use is a rejection, not a crash", async () => {
    const odd = join(tmp.dir, "odd-vocab.gguf");
    writeVocabGGUF(odd, [["tokenizer.ggml.model", gguf.str("no-such-tokenizer")]]);
    await assert.rejects(loadGGUFTokenizer(odd));
  });
});

describe("a template bound to a GGUF", () => {
  it("keeps one binding (and tokenizer) per file until the file changes", () => {
    const a = boundModel(file);
    assert.equal(boundModel(file), a);
    assert.equal(a.binding.label, "vocab.gguf");
    assert.equal(a.binding.tokenizer(), a.binding.tokenizer(), "loaded once");
    const other = join(tmp.dir, "other.gguf");
    writeVocabGGUF(other);
    const b = boundModel(other);
    writeFileSync(other, readFileSync(other)); // same bytes, new mtime: read again
    assert.notEqual(boundModel(other), b);
  });

  it("the preview renders with the file's bos/eos and shows the token count of each output", async () => {
    const { controller: c, posted } = recordedPreview({ debounceMs: 0 });
    c.showTemplate({ uri: "gguf-template:/x", name: "x", text: "{{ bos_token }}hello{{ eos_token }}", model: boundModel(file).binding });
    let ref;
    // until the count arrives, however long a loaded machine takes
    while (!(ref && ref.tokens !== null)) {
      await new Promise((r) => setTimeout(r, 25));
      ref = (posted.filter((m) => m.type === "update").at(-1) as { update: PreviewUpdate }).update.engines.find((e) => e.id === "jinja2");
    }
    assert.equal(ref?.output, "<|endoftext|>hello<|im_end|>");
    assert.equal(ref?.tokens, 3);
    assert.deepEqual(
      ref?.tokenView?.cells.map((c) => [c.text, c.special]),
      [
        ["<|endoftext|>", true],
        ["hello", false],
        ["<|im_end|>", true],
      ],
    );
    assert.deepEqual(ref?.specials, [
      { start: 0, end: 13 },
      { start: 18, end: 28 },
    ]);
    c.dispose();
  });
});
