// 200 requests one after another must not grow memory: every request's sampler, stream and result are freed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { collectGarbage } from "../../helpers/gc";
import { loadEngine, randomPair, randomPrompt } from "../../helpers/native";

describe("memory", () => {
  it("stays flat over 200 sequential requests (plain and DFlash, with grammar and streaming)", async () => {
    const engine = await loadEngine({ ...randomPair(11) });
    const chat = await (await engine.chatTemplate()).apply({ messages: [{ role: "user", content: "hi" }] });
    const run = async (i: number) => {
      let streamed = 0;
      await engine.generate(randomPrompt(i, 20 + (i % 30)), {
        maxTokens: 24,
        temperature: 0.7,
        seed: i,
        speculative: i % 2 === 0,
        stop: ["xyz"],
        grammar: i % 5 === 0 ? 'root ::= [a-z ]+ "."' : undefined,
        onToken: (e) => (streamed += e.text.length),
      });
      await engine.tokenize(chat.prompt);
    };
    for (let i = 0; i < 40; i++) await run(i); // warm up allocators and caches
    // RSS after a full collection, so that the JavaScript heap's garbage is not counted; means over 50 requests
    // show a leak (it grows linearly) but not the native allocator's noise
    const rss: number[] = [];
    for (let i = 40; i < 240; i++) {
      await run(i);
      collectGarbage();
      rss.push(process.memoryUsage().rss);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const grown = (mean(rss.slice(150)) - mean(rss.slice(0, 50))) / 2 ** 20;
    assert.ok(grown < 12, `RSS grew ${grown.toFixed(1)} MiB between the first and the last 50 of 200 requests`);
  });
});
