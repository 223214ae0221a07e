// Sampling, stop strings, limits, constraints and streaming, on both decoding paths.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Engine } from "../../../native/engine/engine";
import type { TokenEvent } from "../../../native/engine/types";
import { constructedPair, loadEngine, randomPair, randomPrompt } from "../../helpers/native";

const both = [false, true] as const;
let random: Promise<Engine> | undefined;
const randomEngine = () => (random ??= loadEngine({ ...randomPair(5) }));
let constructed: Promise<Engine> | undefined;
const constructedEngine = () => (constructed ??= loadEngine({ ...constructedPair() }));
const cycle = Array.from({ length: 30 }, (_, i) => "a".charCodeAt(0) + (i % 24));

describe("generation", () => {
  it("is reproducible with a seed and varies with it", async () => {
    const engine = await randomEngine();
    const prompt = randomPrompt(9, 10);
    const opts = { maxTokens: 30, temperature: 1.0, topK: 0, topP: 1, minP: 0, ignoreEos: true };
    const a = await engine.generate(prompt, { ...opts, seed: 11 });
    await engine.generate(randomPrompt(10, 20), { ...opts, seed: 3 }); // something in between, with other cache contents
    const b = await engine.generate(prompt, { ...opts, seed: 11 });
    const c = await engine.generate(prompt, { ...opts, seed: 12 });
    assert.deepEqual(b.tokens, a.tokens);
    assert.notDeepEqual(c.tokens, a.tokens);
  });

  it("applies top-k 1 as greedy and the repetition penalty", async () => {
    const engine = await randomEngine();
    const prompt = randomPrompt(13, 16);
    const greedy = await engine.generate(prompt, { maxTokens: 40, temperature: 0, ignoreEos: true });
    const topK1 = await engine.generate(prompt, { maxTokens: 40, temperature: 1.5, topK: 1, seed: 5, ignoreEos: true });
    assert.deepEqual(topK1.tokens, greedy.tokens);
    const penalized = await engine.generate(prompt, { maxTokens: 40, temperature: 0, repeatPenalty: 3, repeatLastN: 64, ignoreEos: true });
    assert.notDeepEqual(penalized.tokens, greedy.tokens);
  });

  it("applies logit biases: +100 forces a token, -Infinity bans one", async () => {
    const engine = await randomEngine();
    const prompt = randomPrompt(17, 10);
    const forced = await engine.generate(prompt, { maxTokens: 8, temperature: 0.8, seed: 1, logitBias: { 300: 100 } });
    assert.deepEqual(forced.tokens, Array(8).fill(300));
    const greedy = await engine.generate(prompt, { maxTokens: 20, temperature: 0, ignoreEos: true });
    const banned = await engine.generate(prompt, {
      maxTokens: 20,
      temperature: 0,
      ignoreEos: true,
      logitBias: { [greedy.tokens[0]]: -Infinity },
    });
    assert.ok(!banned.tokens.includes(greedy.tokens[0]));
    await assert.rejects(engine.generate(prompt, { maxTokens: 2, logitBias: { 99999: 1 } }), /logit bias for token 99999/);
  });

  for (const speculative of both) {
    const mode = speculative ? "DFlash" : "plain";

    it(`${mode}: stops at a stop string spanning tokens, holding it back from the stream`, async () => {
      const engine = await constructedEngine();
      const events: TokenEvent[] = [];
      const r = await engine.generate(cycle, {
        maxTokens: 100,
        temperature: 0,
        stop: ["zz", "mno"],
        speculative,
        onToken: (e) => events.push(e),
      });
      assert.equal(r.stopReason, "stop");
      assert.equal(r.stopString, "mno");
      assert.equal(r.text, "ghijkl");
      assert.equal(events.map((e) => e.text).join(""), r.text, "the stream is the text, nothing of the stop string");
      assert.ok(events.every((e) => !e.text.includes("m")));
      assert.deepEqual(
        events.map((e) => e.token),
        r.tokens,
      );
    });

    it(`${mode}: stops at max tokens, streaming every token once`, async () => {
      const engine = await constructedEngine();
      const tokens: (number | null)[] = [];
      const r = await engine.generate(cycle, { maxTokens: 37, temperature: 0, speculative, onToken: (e) => tokens.push(e.token) });
      assert.equal(r.stopReason, "length");
      assert.equal(r.tokens.length, 37);
      assert.equal(r.stats.generatedTokens, 37);
      assert.deepEqual(tokens, r.tokens);
    });

    it(`${mode}: a fast stream comes in batches, at most one per 40 ms, every token in order before the result`, async () => {
      const engine = await constructedEngine();
      const tokens: (number | null)[] = [];
      let deliveries = 0;
      let delivering = false;
      // one delivery's callbacks run in one call from the engine's thread; the next tick comes after it
      const onToken = (e: TokenEvent) => {
        tokens.push(e.token);
        if (delivering) return;
        delivering = true;
        deliveries++;
        process.nextTick(() => (delivering = false));
      };
      const started = performance.now();
      const r = await engine.generate(cycle, { maxTokens: 600, temperature: 0, ignoreEos: true, speculative, onToken });
      const wallMs = performance.now() - started;
      assert.deepEqual(tokens, r.tokens);
      // DELIVERY_INTERVAL in native/src/addon/addon.cpp; a step that takes longer is delivered as it ends, and then
      // deliveries are that far apart anyway; the last one comes with the end of generation
      assert.ok(deliveries <= wallMs / 40 + 2, `${deliveries} deliveries of 600 tokens in ${wallMs.toFixed(0)} ms`);
    });

    it(`${mode}: follows a GBNF grammar and a JSON schema`, async () => {
      const engine = await randomEngine();
      const prompt = randomPrompt(21, 12);
      const g = await engine.generate(prompt, {
        maxTokens: 20,
        temperature: 0.8,
        seed: 2,
        grammar: 'root ::= ("yes" | "no") "!"',
        speculative,
      });
      assert.match(g.text, /^(yes|no)!$/);
      const schema = {
        type: "object",
        properties: { n: { type: "integer" }, ok: { type: "boolean" } },
        required: ["n", "ok"],
        additionalProperties: false,
      };
      const j = await engine.generate(prompt, { maxTokens: 60, temperature: 0.8, seed: 3, jsonSchema: schema, speculative });
      const value = JSON.parse(j.text);
      assert.equal(typeof value.n, "number");
      assert.equal(typeof value.ok, "boolean");
    });
  }

  it("streams exactly the final text, whatever bytes the tokens carry", async () => {
    const engine = await randomEngine();
    for (const seed of [1, 2, 3]) {
      let streamed = "";
      const r = await engine.generate(randomPrompt(seed, 8, 380), {
        maxTokens: 60,
        temperature: 1,
        seed,
        stop: ["e t", "\n\n"],
        onToken: (e) => (streamed += e.text),
      });
      assert.equal(streamed, r.text, `seed ${seed}`);
    }
  });

  it("ends at the end-of-generation token unless told to ignore it", async () => {
    const engine = await randomEngine();
    // a prompt after which the random target emits an end-of-generation token within 150 tokens
    let found: { prompt: number[]; at: number } | undefined;
    for (let seed = 1; !found && seed < 40; seed++) {
      const prompt = randomPrompt(1000 + seed, 6);
      const r = await engine.generate(prompt, { maxTokens: 150, temperature: 0 });
      if (r.stopReason === "eos") found = { prompt, at: r.tokens.length };
    }
    assert.ok(found, "some prompt ends in an end-of-generation token");
    const ignored = await engine.generate(found.prompt, { maxTokens: found.at + 20, temperature: 0, ignoreEos: true });
    assert.equal(ignored.stopReason, "length");
    assert.equal(ignored.tokens.length, found.at + 20);
  });
});
