// The constructed pair's behaviour is known exactly: the target's greedy next token is successor[x], the
// draft proposes successor[x[p - lookback]] at position p. Simulating the engine's drafting loop on that
// rule (test/helpers/draftSimulation.ts) must give exactly the drafted/accepted counts the engine reports
// (full blocks: the simulation drafts every step).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkAgainstSimulation as check, simulate } from "../../helpers/draftSimulation";
import { constructedPair, loadEngine, randomPrompt } from "../../helpers/native";

describe("acceptance on the constructed pair", () => {
  it("equals the simulated acceptance for prompts of ordinary tokens", async () => {
    const pair = constructedPair();
    const engine = await loadEngine({ target: pair.target, draft: pair.draft, contextSize: 1024, draftAdaptive: false });
    for (const [seed, len, maxTokens] of [
      [1, 30, 90],
      [2, 47, 64],
      [3, 26, 200],
      [4, 80, 33],
    ]) {
      const prompt = randomPrompt(seed, len);
      const r = await engine.generate(prompt, { maxTokens, temperature: 0, ignoreEos: true });
      const sim = simulate(pair, prompt, maxTokens, 1024);
      assert.deepEqual(r.tokens, sim.tokens, "the target walks its cycle");
      check(r.stats, sim);
    }
  });

  it("accepts every draft once the prompt already holds the cycle", async () => {
    const pair = constructedPair();
    const engine = await loadEngine({ target: pair.target, draft: pair.draft, draftAdaptive: false });
    const prompt = Array.from({ length: 48 }, (_, i) => "a".charCodeAt(0) + (i % 24));
    const r = await engine.generate(prompt, { maxTokens: 161, temperature: 0, ignoreEos: true });
    check(r.stats, simulate(pair, prompt, 161, 2048));
    assert.equal(r.stats.acceptance, 1);
    assert.equal(r.stats.meanAcceptedLength, 15);
    assert.deepEqual(r.stats.acceptanceAt, Array(15).fill(1));
    assert.equal(r.stats.targetDecodes, 10, "16 tokens per target decode");
    assert.equal(r.text, "abcdefghijklmnopqrstuvwx".repeat(7).slice(0, 161));
  });

  it("equals the simulation for a chat prompt built by the model's template", async () => {
    const pair = constructedPair();
    const engine = await loadEngine({ target: pair.target, draft: pair.draft, draftAdaptive: false });
    const chat = await (
      await engine.chatTemplate()
    ).apply({ messages: [{ role: "user", content: "Please list the letters of the alphabet in order." }] });
    const prompt = await engine.tokenize(chat.prompt);
    assert.ok(prompt.length > pair.lookback, "the prompt is longer than the draft's look-back");
    const r = await engine.generate(prompt, { maxTokens: 120, temperature: 0, ignoreEos: true });
    check(r.stats, simulate(pair, prompt, 120, 2048));
  });
});
