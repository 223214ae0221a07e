import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { specialTokenRanges } from "../../../client/src/preview/model/specialTokens";

const texts = (text: string, ranges: { start: number; end: number }[]) => ranges.map((r) => text.slice(r.start, r.end));

describe("specialTokenRanges", () => {
  it("finds the common spellings when no vocabulary is known", () => {
    const t = "<s>[INST] hi [/INST]<|im_start|>user\n<｜Assistant｜><start_of_turn>x</s>";
    assert.deepEqual(texts(t, specialTokenRanges(t, { tokens: [], common: true })), [
      "<s>",
      "[INST]",
      "[/INST]",
      "<|im_start|>",
      "<｜Assistant｜>",
      "<start_of_turn>",
      "</s>",
    ]);
  });

  it("with a vocabulary, marks exactly its tokens, the longest first", () => {
    const t = "<|im_start|>user<|im_start|x <think>a</think>";
    const r = specialTokenRanges(t, { tokens: ["<think>", "</think>", "<|im_start|>", "<|im"], common: false });
    assert.deepEqual(texts(t, r), ["<|im_start|>", "<|im", "<think>", "</think>"]);
  });

  it("adds the bos/eos texts in use to the common spellings", () => {
    const t = "BOS hello EOT";
    assert.deepEqual(texts(t, specialTokenRanges(t, { tokens: ["BOS", "EOT", ""], common: true })), ["BOS", "EOT"]);
  });

  it("plain text has none", () => {
    assert.deepEqual(specialTokenRanges("a < b | c > d [inst]", { tokens: [], common: true }), []);
  });
});
