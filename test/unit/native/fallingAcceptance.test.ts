// The falling-acceptance pair (native/testModels/falling.ts) behaves exactly as constructed: at a draft step
// with n tokens in the cache its draft proposes "z" instead of each letter k with n > forgetsAfter[k], and the
// look-back rule otherwise. Simulating the engine's fixed-block loop on that rule must give the counts the
// engine reports, step by step across the thresholds and per context bucket.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FallingPair } from "../../../native/testModels/falling";
import { checkAgainstSimulation, lookbackProposal, simulate } from "../../helpers/draftSimulation";
import { fallingPair, loadEngine, randomPrompt } from "../../helpers/native";

function fallingProposal(pair: FallingPair) {
  const remembered = lookbackProposal(pair);
  return (x: number[], pos: number, i: number) => {
    const token = remembered(x, pos, i);
    const k = pair.cycle.indexOf(token);
    return k >= 0 && pos > pair.forgetsAfter[k] ? pair.forgotten : token;
  };
}

const cyclePrompt = (pair: FallingPair, n: number) => Array.from({ length: n }, (_, i) => pair.cycle[i % pair.cycle.length]);

describe("acceptance on the falling-acceptance pair", () => {
  it("forgets one letter of the cycle after another as the context passes its thresholds", () => {
    const pair = fallingPair();
    assert.deepEqual(pair.forgetsAfter.slice(0, 3), [1024, 1280, 1536]);
    assert.ok(pair.forgetsAfter.every((n, k) => k === 0 || n > pair.forgetsAfter[k - 1]));
    assert.equal(pair.cycle.indexOf(pair.forgotten), -1, "the draft's miss is a token the target never produces");
  });

  it("equals the simulation step by step across thresholds", async () => {
    const pair = fallingPair();
    const contextSize = 4096;
    const engine = await loadEngine({ target: pair.target, draft: pair.draft, contextSize, draftAdaptive: false });
    for (const [prompt, maxTokens] of [
      [cyclePrompt(pair, 200), 120], // every letter known: whole blocks accepted
      [cyclePrompt(pair, 1000), 320], // crosses 1024 ("a" forgotten) and 1280 ("b")
      [randomPrompt(7, 1990), 160], // crosses 2048 ("e")
    ] as const) {
      const r = await engine.generate([...prompt], { maxTokens, temperature: 0, ignoreEos: true });
      const sim = simulate(pair, [...prompt], maxTokens, contextSize, fallingProposal(pair));
      assert.deepEqual(r.tokens, sim.tokens, "the target walks its cycle");
      checkAgainstSimulation(r.stats, sim);
    }
  });

  it("counts each step in its context bucket as the simulation does", async () => {
    const pair = fallingPair();
    const contextSize = 8192;
    const engine = await loadEngine({ target: pair.target, draft: pair.draft, contextSize, draftAdaptive: false });
    const prompt = cyclePrompt(pair, 4030);
    const r = await engine.generate(prompt, { maxTokens: 130, temperature: 0, ignoreEos: true });
    const sim = simulate(pair, prompt, 130, contextSize, fallingProposal(pair));
    checkAgainstSimulation(r.stats, sim);
    const [low, mid] = r.stats.byContext!;
    for (const [bucket, steps] of [
      [low, sim.steps.filter((s) => s.pos < 4096)],
      [mid, sim.steps.filter((s) => s.pos >= 4096)],
    ] as const) {
      const drafting = steps.filter((s) => s.drafted > 0);
      assert.ok(drafting.length > 0, `${bucket.bucket}: the run has steps here`);
      assert.equal(bucket.steps, drafting.length, bucket.bucket);
      assert.equal(
        bucket.drafted,
        drafting.reduce((a, s) => a + s.drafted, 0),
        bucket.bucket,
      );
      assert.equal(
        bucket.accepted,
        drafting.reduce((a, s) => a + s.accepted, 0),
        bucket.bucket,
      );
    }
    assert.ok(mid.acceptance < low.acceptance, `acceptance falls with context: ${low.acceptance} then ${mid.acceptance}`);
  });
});
