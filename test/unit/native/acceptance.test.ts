// The constructed pair's behaviour is known exactly: the target's greedy next token is successor[x], the
// draft proposes successor[x[p - lookback]] at position p. Simulating the engine's drafting loop on that
// rule must give exactly the drafted/accepted counts the engine reports.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { GenerateStats } from "../../../native/engine/types";
import type { ConstructedPair } from "../../../native/testModels/pairs";
import { constructedPair, loadEngine, randomPrompt } from "../../helpers/native";

function simulate(pair: ConstructedPair, prompt: number[], maxTokens: number, contextSize: number) {
  const x = [...prompt];
  while (x.length < prompt.length + maxTokens + 16) x.push(pair.successor[x.at(-1)!]);
  const draftMax = pair.blockSize - 1;
  const drafted: number[] = [];
  const accepted: number[] = [];
  let generated = 1; // the first token comes from the prompt's logits
  let pos = prompt.length; // position of the last sampled token, not yet in the cache
  let decodes = 0;
  while (generated < maxTokens) {
    const nMax = Math.min(draftMax, contextSize - pos - 2, maxTokens - generated - 1);
    let a = 0;
    if (nMax > 0) {
      const proposal = Array.from({ length: nMax }, (_, i) => pair.successor[x[pos + 1 + i - pair.lookback]]);
      while (a < nMax && proposal[a] === x[pos + 1 + a]) a++;
      for (let i = 0; i < nMax; i++) {
        drafted[i] = (drafted[i] ?? 0) + 1;
        accepted[i] = (accepted[i] ?? 0) + (i < a ? 1 : 0);
      }
    }
    decodes++;
    generated += a + 1;
    pos += a + 1;
  }
  return { tokens: x.slice(prompt.length, prompt.length + maxTokens), drafted, accepted, decodes };
}

function check(stats: GenerateStats, sim: ReturnType<typeof simulate>) {
  assert.deepEqual(stats.draftedAt, sim.drafted);
  assert.deepEqual(stats.acceptedAt, sim.accepted);
  assert.equal(stats.targetDecodes, sim.decodes);
  assert.equal(stats.drafted, sim.drafted.reduce((a, b) => a + b, 0));
  assert.equal(stats.accepted, sim.accepted.reduce((a, b) => a + b, 0));
}

describe("acceptance on the constructed pair", () => {
  it("equals the simulated acceptance for prompts of ordinary tokens", async () => {
    const pair = constructedPair();
    const engine = await loadEngine({ target: pair.target, draft: pair.draft, contextSize: 1024 });
    for (const [seed, len, maxTokens] of [[1, 30, 90], [2, 47, 64], [3, 26, 200], [4, 80, 33]]) {
      const prompt = randomPrompt(seed, len);
      const r = await engine.generate(prompt, { maxTokens, temperature: 0, ignoreEos: true });
      const sim = simulate(pair, prompt, maxTokens, 1024);
      assert.deepEqual(r.tokens, sim.tokens, "the target walks its cycle");
      check(r.stats, sim);
    }
  });

  it("accepts every draft once the prompt already holds the cycle", async () => {
    const pair = constructedPair();
    const engine = await loadEngine({ target: pair.target, draft: pair.draft });
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
    const engine = await loadEngine({ target: pair.target, draft: pair.draft });
    const chat = await (await engine.chatTemplate()).apply({ messages: [{ role: "user", content: "Please list the letters of the alphabet in order." }] });
    const prompt = await engine.tokenize(chat.prompt);
    assert.ok(prompt.length > pair.lookback, "the prompt is longer than the draft's look-back");
    const r = await engine.generate(prompt, { maxTokens: 120, temperature: 0, ignoreEos: true });
    check(r.stats, simulate(pair, prompt, 120, 2048));
  });
});
