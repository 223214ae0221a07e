// --draft-window: a load-time override of the draft's sliding window. The constructed draft copies the token
// 25 positions back, so a window that still reaches it keeps every draft, and a shorter one loses them all;
// the output is the target's either way.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { constructedPair, loadEngine, randomPair } from "../../helpers/native";

const cycle = (n: number) => Array.from({ length: n }, (_, i) => "a".charCodeAt(0) + (i % 24));

describe("draft window", () => {
  it("decides what the draft can see: acceptance 1 with 32 positions, 0 with 16, the same output", async () => {
    const pair = constructedPair();
    const run = async (draftWindow?: number) => {
      const engine = await loadEngine({ target: pair.target, draft: pair.draft, draftWindow, draftAdaptive: false });
      return { info: engine.info, r: await engine.generate(cycle(48), { maxTokens: 97, temperature: 0, ignoreEos: true }) };
    };
    const own = await run();
    const wide = await run(32);
    const narrow = await run(16);
    assert.equal(own.info.draft!.window, 1 << 20, "the draft's own window, from its metadata");
    assert.deepEqual([wide.info.draft!.window, narrow.info.draft!.window], [32, 16]);
    assert.deepEqual([own.r.stats.acceptance, wide.r.stats.acceptance, narrow.r.stats.acceptance], [1, 1, 0]);
    assert.deepEqual(narrow.r.tokens, own.r.tokens);
  });

  it("is refused, naming the draft, when the draft has no sliding-window layers", async () => {
    const pair = randomPair(1);
    await assert.rejects(loadEngine({ ...pair, draftWindow: 64 }), (e: Error) =>
      /draft window needs a draft with sliding-window attention, and .*random1-draft\.gguf has none/.test(e.message),
    );
  });
});
