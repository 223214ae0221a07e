// The test-model generator: deterministic files, the vocabulary's chat tokens, the template verbatim.
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readGGUFHeader } from "../../../server/src/gguf/reader";
import { ValueType } from "../../../server/src/gguf/types";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";
import { ensureDemoModels } from "../../../native/testModels/demo";
import { writeRandomPair } from "../../../native/testModels/pairs";
import { SPECIAL_TOKENS, buildVocab, bytesToUnicode } from "../../../native/testModels/vocab";
import { corpusDir } from "../../helpers/corpus";
import { tempDir } from "../../helpers/gguf";

const tmp = tempDir("testmodels");
after(tmp.cleanup);

describe("test models", () => {
  it("carry Qwen3's chat template verbatim", () => {
    assert.equal(QWEN3_CHAT_TEMPLATE, readFileSync(corpusDir("templates", "Qwen-Qwen3-0.6B.jinja"), "utf8"));
  });

  it("have a byte-level BPE vocabulary with every byte, learned merges and the chat special tokens", () => {
    const v = buildVocab();
    assert.deepEqual(v.tokens.slice(0, 256), bytesToUnicode());
    assert.equal(new Set(bytesToUnicode()).size, 256);
    assert.equal(new Set(v.tokens).size, v.tokens.length, "no duplicate tokens");
    assert.ok(v.merges.length > 50);
    for (const m of v.merges) assert.ok(v.tokens.includes(m.replace(" ", "")), `merge result ${m} is a token`);
    for (const s of SPECIAL_TOKENS) assert.equal(v.tokens[v.special[s.text]], s.text);
    assert.equal(v.types[v.special["<|im_start|>"]], 3);
    assert.equal(v.types[v.special["<tool_call>"]], 4);
  });

  it("are identical for the same seed and differ for another", () => {
    const a = writeRandomPair(join(tmp.dir, "a"), "p", { seed: 3 });
    const b = writeRandomPair(join(tmp.dir, "b"), "p", { seed: 3 });
    const c = writeRandomPair(join(tmp.dir, "c"), "p", { seed: 4 });
    assert.ok(readFileSync(a.target).equals(readFileSync(b.target)));
    assert.ok(readFileSync(a.draft).equals(readFileSync(b.draft)));
    assert.ok(!readFileSync(a.target).equals(readFileSync(c.target)));
    const draft = readGGUFHeader(a.draft);
    assert.deepEqual(draft.metadata.get("dflash.target_layers"), { type: ValueType.ARRAY, itemType: ValueType.INT32, value: [1, 3] });
    assert.equal(
      draft.tensors.some((t) => t.name === "token_embd.weight" || t.name === "output.weight"),
      false,
      "the draft borrows the target's",
    );
  });

  it("cache the demo pair and say that its weights are random", () => {
    const dir = join(tmp.dir, "demo");
    const first = ensureDemoModels({ dir });
    assert.match(first.description, /random weights/);
    const written = statSync(first.target).mtimeMs;
    const again = ensureDemoModels({ dir });
    assert.deepEqual(again, first);
    assert.equal(statSync(again.target).mtimeMs, written, "served from the cache");
    const constructed = ensureDemoModels({ dir, kind: "constructed" });
    assert.match(constructed.description, /hand-set weights/);
    assert.notEqual(constructed.target, first.target);
  });
});
