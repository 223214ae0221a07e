// The adaptive draft length (native/src/engine/draft_controller.cpp) in the engine: whatever it chooses,
// the output is plain decoding's; it stops drafting where the draft is always wrong (the random pair) and
// drafts whole blocks where it is always right (the constructed pair); acceptance is counted per context.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { GenerateStats } from "../../../native/engine/types";
import { constructedPair, fallingPair, loadEngine, randomPair, randomPrompt } from "../../helpers/native";

const cycle = (n: number) => Array.from({ length: n }, (_, i) => "a".charCodeAt(0) + (i % 24));
// the falling pair's draft knows every letter below 1024 tokens of context and none past 6912
const FALLEN = 7100;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function checkCounts(s: GenerateStats) {
  const c = s.controller!;
  assert.equal(sum(c.choices), s.targetDecodes, "one choice per target decode");
  assert.equal(s.targetDecodes - c.choices[0], s.draftSteps, "choices above 0 are the steps with a draft");
  assert.equal(sum(s.byContext!.map((b) => b.steps)), s.draftSteps);
  assert.equal(sum(s.byContext!.map((b) => b.plainSteps)), c.choices[0]);
  assert.equal(sum(s.byContext!.map((b) => b.drafted)), s.drafted);
  assert.equal(sum(s.byContext!.map((b) => b.accepted)), s.accepted);
  for (const b of s.byContext!) {
    assert.equal(b.stepMs > 0, b.steps > 0, `${b.bucket}: time of the steps with a draft`);
    assert.equal(b.plainMs > 0, b.plainSteps > 0, `${b.bucket}: time of the plain steps`);
  }
  assert.ok(sum(s.byContext!.map((b) => b.stepMs + b.plainMs)) <= s.generateMs, "within the generation's time");
}

describe("adaptive draft length", () => {
  it("keeps the output of plain greedy decoding across its choices (random and constructed pairs)", async () => {
    const mixed = new Set<string>();
    for (const pair of [randomPair(1), randomPair(2), constructedPair()]) {
      const engine = await loadEngine({ target: pair.target, draft: pair.draft });
      for (let p = 0; p < 4; p++) {
        const prompt = randomPrompt(300 + p, 20 + p * 13);
        const plain = await engine.generate(prompt, { maxTokens: 90, temperature: 0, speculative: false, ignoreEos: true });
        const dflash = await engine.generate(prompt, { maxTokens: 90, temperature: 0, ignoreEos: true });
        assert.deepEqual(dflash.tokens, plain.tokens, `${pair.kind}, prompt ${p}`);
        assert.equal(dflash.stats.controller!.adaptive, true);
        checkCounts(dflash.stats);
        dflash.stats.controller!.choices.forEach((n, i) => n > 0 && mixed.add(i === 0 ? "plain" : "draft"));
      }
    }
    assert.deepEqual([...mixed].sort(), ["draft", "plain"], "the runs had both plain and drafting steps");
  });

  it("keeps the output of plain decoding with sampling for the same seed", async () => {
    const pair = randomPair(4);
    const engine = await loadEngine({ target: pair.target, draft: pair.draft });
    for (const seed of [1, 7, 42, 1234]) {
      const prompt = randomPrompt(seed, 12);
      const opts = { maxTokens: 60, temperature: 0.9, topK: 20, topP: 0.9, minP: 0.02, seed, ignoreEos: true };
      const plain = await engine.generate(prompt, { ...opts, speculative: false });
      const dflash = await engine.generate(prompt, opts);
      assert.deepEqual(dflash.tokens, plain.tokens, `seed ${seed}`);
    }
  });

  it("stops drafting on the random pair, whose drafts are rejected", async () => {
    const pair = randomPair(1);
    const engine = await loadEngine({ target: pair.target, draft: pair.draft });
    await engine.generate(randomPrompt(4, 30), { maxTokens: 100, temperature: 0, ignoreEos: true }); // it learns here
    const r = await engine.generate(randomPrompt(5, 30), { maxTokens: 300, temperature: 0, ignoreEos: true });
    const c = r.stats.controller!;
    assert.equal(c.lastChoice, 0);
    assert.ok(c.choices[0] > 280, `plain steps but a few re-probes: ${c.choices.join(",")}`);
    assert.ok(c.breakEven > 0 && c.breakEven < 1, `below break-even: ${c.breakEven}`);
    checkCounts(r.stats);
  });

  it("drafts whole blocks on the constructed pair, whose drafts are accepted", async () => {
    const pair = constructedPair();
    const engine = await loadEngine({ target: pair.target, draft: pair.draft });
    await engine.generate(cycle(48), { maxTokens: 160, temperature: 0, ignoreEos: true }); // it learns here
    const r = await engine.generate(cycle(50), { maxTokens: 321, temperature: 0, ignoreEos: true });
    const c = r.stats.controller!;
    assert.equal(r.stats.acceptance, 1);
    // every step but the last few drafts the whole block; where max_tokens leaves room for only a short
    // draft, a plain step can be faster on the CPU (a draft costs the same whatever its length)
    assert.ok(c.choices[15] >= r.stats.targetDecodes - 4, `steps by tokens drafted: ${c.choices.join(",")}`);
    assert.ok(c.breakEven > 1, `above break-even: ${c.breakEven}`);
    checkCounts(r.stats);
  });

  it("can be turned off per engine and per request: full blocks every step", async () => {
    const pair = randomPair(1);
    const fixed = await loadEngine({ target: pair.target, draft: pair.draft, draftAdaptive: false });
    assert.equal(fixed.info.draft!.draftAdaptive, false);
    const r = await fixed.generate(randomPrompt(5, 30), { maxTokens: 40, temperature: 0, ignoreEos: true });
    assert.equal(r.stats.controller!.adaptive, false);
    // every step but one at the very end, where max_tokens leaves no room for a draft
    assert.ok(r.stats.draftSteps >= r.stats.targetDecodes - 1, `${r.stats.draftSteps} of ${r.stats.targetDecodes}`);
    const adaptive = await loadEngine({ target: pair.target, draft: pair.draft, draftMax: 7 });
    const once = await adaptive.generate(randomPrompt(5, 30), { maxTokens: 40, temperature: 0, ignoreEos: true, draftAdaptive: false });
    assert.equal(once.stats.controller!.choices.length, 8, "choices 0..draftMax");
    assert.ok(once.stats.draftSteps >= once.stats.targetDecodes - 1);
  });

  it("counts acceptance by context bucket, each step at its own context length", async () => {
    const pair = constructedPair();
    const engine = await loadEngine({ target: pair.target, draft: pair.draft, contextSize: 8192, draftAdaptive: false });
    // steps start at 4080, 4096, 4112, …: one step below 4k, the rest in 4–16k
    const r = await engine.generate(cycle(4080), { maxTokens: 81, temperature: 0, ignoreEos: true });
    const [low, mid, ...rest] = r.stats.byContext!;
    assert.deepEqual([low.bucket, mid.bucket], ["<4k", "4-16k"]);
    assert.deepEqual([low.steps, low.drafted, low.accepted, low.meanAcceptedLength], [1, 15, 15, 15]);
    assert.deepEqual([mid.steps, mid.drafted, mid.accepted, mid.acceptance], [4, 60, 60, 1]);
    assert.ok(rest.every((b) => b.steps === 0 && b.plainSteps === 0));
  });
  it("follows the falling pair: whole blocks where acceptance is 1, plain steps where it fell to 0", async () => {
    const pair = fallingPair();
    const engine = await loadEngine({ target: pair.target, draft: pair.draft, contextSize: 8192 });
    await engine.generate(cycle(48), { maxTokens: 160, temperature: 0, ignoreEos: true }); // it learns here
    const early = await engine.generate(cycle(50), { maxTokens: 321, temperature: 0, ignoreEos: true });
    assert.equal(early.stats.acceptance, 1);
    assert.ok(early.stats.controller!.choices[15] >= early.stats.targetDecodes - 4, `${early.stats.controller!.choices.join(",")}`);
    checkCounts(early.stats);
    // the same engine past the last threshold: the 4-16k bucket starts from the <4k estimates and unlearns them
    const late = await engine.generate(cycle(FALLEN), { maxTokens: 300, temperature: 0, ignoreEos: true });
    const c = late.stats.controller!;
    assert.equal(late.stats.accepted, 0);
    assert.equal(c.lastChoice, 0);
    assert.ok(c.choices[0] > 270, `plain steps but a few probes: ${c.choices.join(",")}`);
    const [low, mid] = late.stats.byContext!;
    assert.deepEqual([low.steps, low.plainSteps], [0, 0], "every step of the run is past 4k");
    assert.deepEqual([mid.steps, mid.plainSteps, mid.accepted], [late.stats.draftSteps, c.choices[0], 0]);
    checkCounts(late.stats);
  });

  it("keeps plain decoding's output while acceptance falls under it (greedy and seeded)", async () => {
    const pair = fallingPair();
    const engine = await loadEngine({ target: pair.target, draft: pair.draft, contextSize: 8192 });
    const choices = new Set<string>();
    for (const [prompt, opts] of [
      [cycle(6000), { maxTokens: 300, temperature: 0 }], // crosses 6144 and 6400: drafts get short, then stop
      [randomPrompt(11, 1000), { maxTokens: 300, temperature: 0 }],
      // a hot sampler breaks the cycle now and then, so acceptance varies from step to step
      [randomPrompt(12, 1200), { maxTokens: 200, temperature: 8, topK: 3, seed: 5 }],
    ] as const) {
      const plain = await engine.generate(prompt, { ...opts, ignoreEos: true, speculative: false });
      const dflash = await engine.generate(prompt, { ...opts, ignoreEos: true });
      assert.deepEqual(dflash.tokens, plain.tokens, `prompt of ${prompt.length}`);
      checkCounts(dflash.stats);
      dflash.stats.controller!.choices.forEach((n, i) => n > 0 && choices.add(i === 0 ? "plain" : "draft"));
    }
    // which draft lengths it picks in between rests on measured costs, so only both ends are certain
    assert.deepEqual([...choices].sort(), ["draft", "plain"], "the runs had both plain and drafting steps");
  });
});
