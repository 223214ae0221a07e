// DFlash must never change the output: the target verifies every drafted token. Full blocks here, so that
// every step verifies a draft (adaptiveDraft.test.ts covers the controller's choices).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { constructedPair, loadEngine, randomPair, randomPrompt } from "../../helpers/native";

describe("DFlash is lossless", () => {
  it("matches plain greedy decoding token for token over random pairs, prompts and lengths", async () => {
    let steps = 0;
    for (const modelSeed of [1, 2, 3]) {
      const pair = randomPair(modelSeed);
      const engine = await loadEngine({ target: pair.target, draft: pair.draft, draftAdaptive: false });
      for (let p = 0; p < 6; p++) {
        const prompt = randomPrompt(modelSeed * 100 + p, 5 + p * 9);
        const maxTokens = 24 + p * 11;
        const plain = await engine.generate(prompt, { maxTokens, temperature: 0, speculative: false, ignoreEos: true });
        const dflash = await engine.generate(prompt, { maxTokens, temperature: 0, ignoreEos: true });
        assert.deepEqual(dflash.tokens, plain.tokens, `model ${modelSeed}, prompt ${p}`);
        assert.equal(dflash.text, plain.text);
        assert.equal(dflash.stats.speculative, true);
        assert.equal(plain.stats.speculative, false);
        steps += dflash.stats.draftSteps;
      }
    }
    assert.ok(steps > 50, `drafts were verified (${steps} steps)`);
  });

  it("matches plain decoding with sampling for the same seed", async () => {
    const pair = randomPair(4);
    const engine = await loadEngine({ target: pair.target, draft: pair.draft, draftAdaptive: false });
    for (const seed of [1, 7, 42, 1234]) {
      const prompt = randomPrompt(seed, 12);
      const opts = { maxTokens: 40, temperature: 0.9, topK: 20, topP: 0.9, minP: 0.02, seed, ignoreEos: true };
      const plain = await engine.generate(prompt, { ...opts, speculative: false });
      const dflash = await engine.generate(prompt, opts);
      assert.deepEqual(dflash.tokens, plain.tokens, `seed ${seed}`);
    }
  });

  it("matches plain decoding on the constructed pair, where drafts are accepted once the output has cycled", async () => {
    const pair = constructedPair();
    const engine = await loadEngine({ target: pair.target, draft: pair.draft, draftAdaptive: false });
    for (let p = 0; p < 4; p++) {
      const prompt = randomPrompt(p, 30 + p * 7);
      const plain = await engine.generate(prompt, { maxTokens: 100, temperature: 0, speculative: false, ignoreEos: true });
      const dflash = await engine.generate(prompt, { maxTokens: 100, temperature: 0, ignoreEos: true });
      assert.deepEqual(dflash.tokens, plain.tokens);
      // the draft copies from 25 positions back, so the first ~25 tokens are warm-up
      assert.ok(dflash.stats.accepted >= 50, `accepted ${dflash.stats.accepted} of 100`);
    }
  });
});
