// The prompt cache of several prefixes: a side conversation between two turns of the main one does not
// evict the main one's KV state; it comes back from host memory, within the budget, and DFlash drafts after
// the switch exactly as it would have without it (the draft's cache comes back with the target's).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Engine } from "../../../native/engine/engine";
import { constructedPair, loadEngine, randomPair, randomPrompt } from "../../helpers/native";

const MAIN = randomPrompt(1, 600);
const SIDE = randomPrompt(2, 80);

/** main, side, then main's next turn (its first turn, the reply and a new message): the last result. */
async function interleave(engine: Engine, options: { speculative?: boolean; side?: boolean } = {}) {
  const opts = { maxTokens: 12, temperature: 0, ignoreEos: true, speculative: options.speculative ?? false };
  const first = await engine.generate(MAIN, opts);
  if (options.side ?? true) await engine.generate(SIDE, opts);
  return engine.generate([...MAIN, ...first.tokens, ...randomPrompt(3, 30)], opts);
}

describe("prompt cache", () => {
  it("keeps the main conversation cached across a side request (≥ 95 %); without it, the side request evicts it", async () => {
    const pair = randomPair(1);
    const next = await interleave(await loadEngine({ target: pair.target, cacheRamMiB: 64 }));
    assert.ok(next.stats.cachedTokens / next.stats.promptTokens >= 0.95, `${next.stats.cachedTokens} of ${next.stats.promptTokens} cached`);
    assert.equal(next.stats.promptRestored, next.stats.cachedTokens);
    const without = await interleave(await loadEngine({ target: pair.target }));
    assert.ok(
      without.stats.cachedTokens / without.stats.promptTokens < 0.05,
      `${without.stats.cachedTokens} of ${without.stats.promptTokens} cached`,
    );
    assert.equal(without.stats.promptRestored, 0);
  });

  it("lists what it holds: the context's tokens and the saved conversations with their size and last use", async () => {
    const engine = await loadEngine({ target: randomPair(1).target, cacheRamMiB: 64 });
    const before = Date.now();
    await engine.generate(MAIN, { maxTokens: 4, temperature: 0, ignoreEos: true });
    assert.deepEqual(engine.promptCache(), { liveTokens: MAIN.length + 3, budgetBytes: 64 << 20, usedBytes: 0, entries: [] });
    await engine.generate(SIDE, { maxTokens: 4, temperature: 0, ignoreEos: true });
    const info = engine.promptCache();
    assert.equal(info.liveTokens, SIDE.length + 3);
    assert.equal(info.entries.length, 1);
    const [main] = info.entries;
    assert.equal(main.tokens, MAIN.length + 3);
    assert.equal(main.draftTokens, 0);
    assert.ok(main.bytes > 0 && info.usedBytes === main.bytes);
    assert.ok(main.lastUsedMs >= before && main.lastUsedMs <= Date.now());
    // back to main: main leaves the list (it is in the context again) and the side conversation takes its place
    await engine.generate([...MAIN, 1, 2, 3], { maxTokens: 4, temperature: 0, ignoreEos: true });
    assert.deepEqual(
      engine.promptCache().entries.map((e) => e.tokens),
      [SIDE.length + 3],
    );
  });

  it("evicts the least recently used conversations to stay within the budget", async () => {
    // 1,100 tokens of this model's KV take about 0.55 MiB: a budget of 1 MiB holds one, not two
    const engine = await loadEngine({ target: randomPair(1).target, cacheRamMiB: 1 });
    const convs = [1, 2, 3].map((seed) => randomPrompt(seed, 1100));
    for (const c of convs) await engine.generate(c, { maxTokens: 1, temperature: 0 });
    const info = engine.promptCache();
    assert.deepEqual(
      info.entries.map((e) => e.tokens),
      [1100],
    );
    assert.ok(
      info.usedBytes <= info.budgetBytes && 2 * info.usedBytes > info.budgetBytes,
      `${info.usedBytes} of ${info.budgetBytes} bytes`,
    );
    // the newest saved one comes back (the third is saved in its place); the oldest went
    const again = await engine.generate([...convs[1], 7], { maxTokens: 1, temperature: 0 });
    assert.equal(again.stats.promptRestored, 1100);
    const gone = await engine.generate([...convs[0], 7], { maxTokens: 1, temperature: 0 });
    assert.equal(gone.stats.promptRestored, 0);
  });

  it("DFlash after a switch: output equal to plain decoding, and drafts as without the side request", async () => {
    const pair = constructedPair();
    // full blocks, so that both runs draft the same positions whatever the step costs
    const switched = await interleave(await loadEngine({ target: pair.target, draft: pair.draft, cacheRamMiB: 64, draftAdaptive: false }), {
      speculative: true,
    });
    const straight = await interleave(await loadEngine({ target: pair.target, draft: pair.draft, draftAdaptive: false }), {
      speculative: true,
      side: false,
    });
    const plain = await interleave(await loadEngine({ target: pair.target, draft: pair.draft, cacheRamMiB: 64 }), { speculative: false });
    assert.deepEqual(switched.tokens, plain.tokens);
    assert.deepEqual(switched.tokens, straight.tokens);
    assert.ok(switched.stats.promptRestored > 0);
    assert.equal(switched.stats.promptEvaluated, straight.stats.promptEvaluated);
    // the draft reads 25 positions back: a draft cache out of step with the target would change these
    assert.deepEqual([switched.stats.draftedAt, switched.stats.acceptedAt], [straight.stats.draftedAt, straight.stats.acceptedAt]);
    assert.ok(switched.stats.accepted > 0);
  });
});
