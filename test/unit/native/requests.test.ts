// Request handling around generation: abort, ordering, prefix reuse, context overflow, close.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, it } from "node:test";
import { ContextOverflowError } from "../../../native/engine/errors";
import { constructedPair, loadEngine, randomPair, randomPrompt } from "../../helpers/native";

describe("requests", () => {
  for (const speculative of [false, true]) {
    it(`${speculative ? "DFlash" : "plain"}: abort from the stream's callback ends generation long before max tokens`, async () => {
      // room for seconds of tokens, so that a JS thread the machine's load holds back still aborts before the end
      const engine = await loadEngine({ ...randomPair(6), contextSize: 8192 });
      const ac = new AbortController();
      let seen = 0;
      const r = await engine.generate(randomPrompt(1, 10), {
        maxTokens: 8000,
        temperature: 0,
        ignoreEos: true,
        speculative,
        signal: ac.signal,
        onToken: () => ++seen === 3 && ac.abort(),
      });
      // the engine stops at its next step; the stream lags it by the batch it was delivering (up to 40 ms of tokens)
      assert.equal(r.stopReason, "abort");
      assert.ok(r.tokens.length >= 3, `${r.tokens.length} tokens`);
      const after = await engine.generate(randomPrompt(2, 10), { maxTokens: 5, temperature: 0, ignoreEos: true });
      assert.equal(after.tokens.length, 5, "the engine keeps working");
    });
  }

  it("an already aborted signal ends before any token", async () => {
    const engine = await loadEngine({ ...randomPair(6) });
    const r = await engine.generate(randomPrompt(3, 10), { maxTokens: 50, signal: AbortSignal.abort() });
    assert.equal(r.stopReason, "abort");
    assert.equal(r.tokens.length, 0);
  });

  it("runs concurrent requests one at a time, in call order", async () => {
    const engine = await loadEngine({ ...randomPair(6) });
    const order: number[] = [];
    const runs = [0, 1, 2, 3].map((i) =>
      engine.generate(randomPrompt(10 + i, 8), { maxTokens: 12, temperature: 0, ignoreEos: true }).then((r) => (order.push(i), r)),
    );
    const results = await Promise.all(runs);
    assert.deepEqual(order, [0, 1, 2, 3]);
    for (const [i, r] of results.entries()) {
      const again = await engine.generate(randomPrompt(10 + i, 8), { maxTokens: 12, temperature: 0, ignoreEos: true });
      assert.deepEqual(again.tokens, r.tokens, "interleaving did not change any result");
    }
  });

  for (const speculative of [false, true]) {
    it(`${speculative ? "DFlash" : "plain"}: reuses the KV cache for the longest common prefix, with identical output`, async () => {
      const pair = randomPair(7);
      const warm = await loadEngine({ ...pair });
      const cold = await loadEngine({ ...pair });
      const shared = randomPrompt(20, 40);
      const first = [...shared, ...randomPrompt(21, 10)];
      const second = [...shared, ...randomPrompt(22, 15)];
      const opts = { maxTokens: 30, temperature: 0, ignoreEos: true, speculative };
      const a = await warm.generate(first, opts);
      assert.equal(a.stats.promptEvaluated, first.length);
      const b = await warm.generate(second, opts);
      assert.equal(b.stats.promptEvaluated, second.length - shared.length, "only the new suffix is decoded");
      assert.equal(b.stats.cachedTokens, shared.length);
      assert.deepEqual(b.tokens, (await cold.generate(second, opts)).tokens, "same output as without the cache");
      // a continuation of the first request's own output reuses that too
      const followUp = [...first, ...a.tokens.slice(0, 20), ...randomPrompt(23, 5)];
      await warm.generate(first, opts);
      const c = await warm.generate(followUp, opts);
      assert.ok(c.stats.promptEvaluated <= 5 + 1, `${c.stats.promptEvaluated} evaluated`);
      assert.deepEqual(c.tokens, (await cold.generate(followUp, opts)).tokens);
      // the same prompt again decodes only its last token, for its logits
      assert.equal((await warm.generate(followUp, opts)).stats.promptEvaluated, 1);
    });
  }

  it("rejects prompt + max_tokens beyond the context before decoding, with the sizes", async () => {
    const engine = await loadEngine({ ...randomPair(6), contextSize: 256 });
    const prompt = randomPrompt(30, 200);
    await engine.generate(prompt.slice(0, 50), { maxTokens: 1, temperature: 0 });
    const err = await engine.generate(prompt, { maxTokens: 57 }).catch((e) => e);
    assert.ok(err instanceof ContextOverflowError);
    assert.equal(err.code, "context_overflow");
    assert.deepEqual([err.promptTokens, err.maxTokens, err.contextSize], [200, 57, 256]);
    assert.equal(err.message, "input length and max_tokens exceed context limit: 200 + 57 > 256");
    const ok = await engine.generate(prompt, { maxTokens: 56, temperature: 0, ignoreEos: true });
    assert.equal(ok.stats.promptEvaluated, 150, "the failed request decoded nothing: the cache still holds the earlier prefix");
  });

  it("rejects bad requests with invalid_argument", async () => {
    const engine = await loadEngine({ ...randomPair(6) });
    const bad = async (prompt: number[], opts: object, re: RegExp) => {
      const e = await engine.generate(prompt, { maxTokens: 4, ...opts }).catch((x) => x);
      assert.ok(e instanceof Error, String(e));
      assert.match(e.message, re);
      return e as Error & { code?: string };
    };
    assert.equal((await bad([1, 2, 999999], {}, /token 999999 at index 2 is outside the vocabulary/)).code, "invalid_argument");
    assert.equal((await bad([], {}, /the prompt has no tokens/)).code, "invalid_argument");
    await bad([1], { grammar: "root ::= (" }, /grammar does not parse: .*parse/);
    await bad([1], { jsonSchema: { type: "object" }, grammar: 'root ::= "x"' }, /grammar or a JSON schema, not both/);
    await bad([1], { topP: 2 }, /sampling parameters out of range/);
    await bad([1], { repeatPenalty: 0 }, /penalty_repeat must be finite and greater than 0/);
    await bad([1], { maxTokens: 0 }, /maxTokens/);
    await bad([1.5], {}, /token ids/);
  });

  for (const speculative of [false, true]) {
    it(`${speculative ? "DFlash" : "plain"}: a grammar that is complete while the end of generation is banned is an invalid_argument`, async () => {
      const engine = await loadEngine({ ...randomPair(6) });
      for (const constraint of [{ grammar: 'root ::= "ab"' }, { jsonSchema: { type: "boolean" } }]) {
        const e = await engine
          .generate(randomPrompt(50, 8), { maxTokens: 40, ignoreEos: true, speculative, ...constraint })
          .catch((x) => x);
        assert.equal(e.code, "invalid_argument", String(e));
        assert.match(
          e.message,
          /^the grammar is complete but the end of generation is banned \(ignore_eos or a logit bias\): Unexpected empty grammar stack/,
        );
      }
      const ok = await engine.generate(randomPrompt(50, 8), { maxTokens: 40, temperature: 0, grammar: 'root ::= "ab"', speculative });
      assert.deepEqual([ok.text, ok.stopReason], ["ab", "eos"], "the engine keeps working, and a grammar that may end ends");
    });
  }

  it("close aborts what runs, rejects what comes after", async () => {
    const engine = await loadEngine({ ...constructedPair() });
    let generating!: () => void;
    const firstToken = new Promise<void>((resolve) => (generating = resolve));
    const running = engine.generate(randomPrompt(40, 30), {
      maxTokens: 2000,
      temperature: 0,
      ignoreEos: true,
      speculative: false,
      onToken: () => generating(),
    });
    // closed while it generates, however long a loaded machine takes to get there
    await firstToken;
    await engine.close();
    assert.equal((await running).stopReason, "abort");
    await assert.rejects(engine.generate([1, 2], { maxTokens: 2 }), (e: Error) => e.message === "the engine is closed");
    await assert.rejects(engine.tokenize("x"), /the engine is closed/);
  });

  it("lets the process exit in the middle of a generation", () => {
    const pair = constructedPair();
    const code = `const { Engine } = require("./native/engine/engine");
      Engine.load({ target: ${JSON.stringify(pair.target)}, draft: ${JSON.stringify(pair.draft)}, threads: 1 }).then((e) => {
        e.generate([97, 98, 99], { maxTokens: 1500, ignoreEos: true, temperature: 0 });
        setTimeout(() => process.exit(0), 30);
      });`;
    const r = spawnSync(process.execPath, ["--import", "tsx", "-e", code], { cwd: resolve(__dirname, "../../.."), encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.signal, null);
  });
});
