// 200 requests one after another must not grow memory: every request's sampler, stream and result are freed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadEngine, randomPair, randomPrompt } from "../../helpers/native";

describe("memory", () => {
  it("stays flat over 200 sequential requests (plain and DFlash, with grammar and streaming)", async () => {
    const engine = await loadEngine({ ...randomPair(11) });
    const chat = await (await engine.chatTemplate()).apply({ messages: [{ role: "user", content: "hi" }] });
    const run = async (i: number) => {
      let streamed = 0;
      await engine.generate(randomPrompt(i, 20 + (i % 30)), {
        maxTokens: 24, temperature: 0.7, seed: i, speculative: i % 2 === 0, stop: ["xyz"],
        grammar: i % 5 === 0 ? 'root ::= [a-z ]+ "."' : undefined, onToken: (e) => (streamed += e.text.length),
      });
      await engine.tokenize(chat.prompt);
    };
    for (let i = 0; i < 40; i++) await run(i); // warm up allocators and caches
    const before = process.memoryUsage().rss;
    for (let i = 40; i < 240; i++) await run(i);
    const grown = (process.memoryUsage().rss - before) / 2 ** 20;
    assert.ok(grown < 16, `RSS grew ${grown.toFixed(1)} MiB over 200 requests`);
  });
});
