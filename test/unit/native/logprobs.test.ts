// Token log-probabilities: from the target's distribution before the sampler chain, the same with DFlash as
// plain, on the stream as in the result.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { TokenEvent, TokenLogprobs } from "../../../native/engine/types";
import { loadEngine, randomPair, randomPrompt } from "../../helpers/native";

// a verification batch and a one-token decode round differently
const close = (a: number, b: number) => Math.abs(a - b) < 1e-3;

function checkShape(lp: TokenLogprobs, top: number): void {
  assert.equal(lp.top.length, top);
  assert.ok(lp.logprob <= 0);
  for (let i = 1; i < lp.top.length; i++) assert.ok(lp.top[i - 1].logprob >= lp.top[i].logprob, "most likely first");
  assert.ok(lp.top.reduce((s, t) => s + Math.exp(t.logprob), 0) <= 1 + 1e-5);
  const listed = lp.top.find((t) => t.token === lp.token);
  if (listed) assert.ok(close(listed.logprob, lp.logprob));
}

describe("logprobs", () => {
  it("greedy: each token is the most likely one, with its bytes; none without asking", async () => {
    const pair = randomPair(1);
    const engine = await loadEngine({ target: pair.target });
    const prompt = randomPrompt(1, 20);
    const r = await engine.generate(prompt, { maxTokens: 12, temperature: 0, ignoreEos: true, speculative: false, logprobs: { top: 5 } });
    assert.equal(r.logprobs!.length, r.tokens.length);
    for (const [i, lp] of r.logprobs!.entries()) {
      assert.equal(lp.token, r.tokens[i]);
      checkShape(lp, 5);
      assert.equal(lp.top[0].token, lp.token);
      assert.equal(new TextDecoder().decode(Uint8Array.from(lp.bytes)), await engine.detokenize([lp.token], { special: true }));
    }
    const plain = await engine.generate(prompt, { maxTokens: 12, temperature: 0, ignoreEos: true, speculative: false });
    assert.equal(plain.logprobs, undefined);
    assert.deepEqual(plain.tokens, r.tokens);
  });

  it("are the model's, not the sampler's: the same at temperature 2 with top-k 3 as greedy for the same position", async () => {
    const engine = await loadEngine({ target: randomPair(1).target });
    const prompt = randomPrompt(2, 20);
    const greedy = await engine.generate(prompt, { maxTokens: 1, temperature: 0, logprobs: { top: 8 } });
    const hot = await engine.generate(prompt, { maxTokens: 1, temperature: 2, topK: 3, seed: 5, logprobs: { top: 8 } });
    assert.deepEqual(
      hot.logprobs![0].top.map((t) => t.token),
      greedy.logprobs![0].top.map((t) => t.token),
    );
    hot.logprobs![0].top.forEach((t, i) => assert.ok(close(t.logprob, greedy.logprobs![0].top[i].logprob)));
    assert.ok(
      greedy.logprobs![0].top.slice(0, 3).some((t) => t.token === hot.tokens[0]),
      "top-k 3 sampled one of the three most likely",
    );
  });

  it("DFlash gives the same figures as plain decoding, and the stream the same as the result", async () => {
    const pair = randomPair(1);
    const engine = await loadEngine({ target: pair.target, draft: pair.draft });
    const prompt = randomPrompt(3, 30);
    const opts = { maxTokens: 40, temperature: 0, ignoreEos: true, logprobs: { top: 3 } };
    const plain = await engine.generate(prompt, { ...opts, speculative: false });
    const events: TokenEvent[] = [];
    const dflash = await engine.generate(prompt, { ...opts, onToken: (e) => events.push(e) });
    assert.ok(dflash.stats.draftSteps > 0);
    assert.deepEqual(dflash.tokens, plain.tokens);
    dflash.logprobs!.forEach((lp, i) => {
      assert.deepEqual(
        lp.top.map((t) => t.token),
        plain.logprobs![i].top.map((t) => t.token),
      );
      assert.ok(close(lp.logprob, plain.logprobs![i].logprob), `token ${i}: ${lp.logprob} vs ${plain.logprobs![i].logprob}`);
    });
    assert.deepEqual(
      events.filter((e) => e.token !== null).map((e) => e.logprobs),
      dflash.logprobs,
    );
  });

  it("top is at most 20", async () => {
    const engine = await loadEngine({ target: randomPair(1).target });
    await assert.rejects(engine.generate([1, 2, 3], { maxTokens: 1, logprobs: { top: 21 } }), /topLogprobs/);
  });
});
