// The endpoint's prompt cache as an agent uses it: a main conversation with a long system prompt, a short side
// request (a title, a subagent) in between, then the main conversation's next turn, through both SDKs. With the
// cache the next turn is ≥ 95 % cached; with --cache-ram 0 the side request evicts it. GET /slots lists it.
import Anthropic from "@anthropic-ai/sdk";
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import OpenAI from "openai";
import { startEndpoint, type EndpointProcess } from "../../helpers/endpoint";

const SYSTEM = Array.from({ length: 60 }, (_, i) => `Rule ${i}: keep edits small, run the tests, and explain each change.`).join("\n");
const GREEDY: object = { temperature: 0 };

let cached: EndpointProcess;
let uncached: EndpointProcess;
before(async () => {
  [cached, uncached] = await Promise.all([startEndpoint(), startEndpoint(["--cache-ram", "0"])]);
});
after(() => Promise.all([cached.stop(), uncached.stop()]));

/** main, side, main again: the share of the last request's prompt read from the cache. */
async function anthropicShare(endpoint: EndpointProcess): Promise<number> {
  const client = new Anthropic({ baseURL: endpoint.url, apiKey: "unused", maxRetries: 0 });
  const first: Anthropic.MessageParam[] = [{ role: "user", content: "Fix the failing test." }];
  const reply = await client.messages.create({ model: "m", max_tokens: 8, system: SYSTEM, messages: first, ...GREEDY });
  await client.messages.create({
    model: "m",
    max_tokens: 8,
    system: "Write a 5-word title.",
    messages: [{ role: "user", content: "Fix the failing test." }],
    ...GREEDY,
  });
  const text = reply.content.map((b) => (b.type === "text" ? b.text : "")).join("") || "ok";
  const next = await client.messages.create({
    model: "m",
    max_tokens: 8,
    system: SYSTEM,
    messages: [...first, { role: "assistant", content: text }, { role: "user", content: "Now run it." }],
    ...GREEDY,
  });
  const read = next.usage.cache_read_input_tokens ?? 0;
  return read / (read + next.usage.input_tokens);
}

describe("prompt cache through the endpoint", () => {
  test("Anthropic: main, side, main keeps ≥ 95 % of the main prompt cached (without the cache: evicted)", async () => {
    const share = await anthropicShare(cached);
    assert.ok(share >= 0.95, `cached share ${share}`);
    const without = await anthropicShare(uncached);
    assert.ok(without < 0.05, `cached share without the cache ${without}`);
  });

  test("OpenAI: the same through prompt_tokens_details.cached_tokens", async () => {
    const client = new OpenAI({ baseURL: `${cached.url}/v1`, apiKey: "unused", maxRetries: 0 });
    const main: OpenAI.ChatCompletionMessageParam[] = [
      { role: "system", content: `${SYSTEM}\nOpenAI.` },
      { role: "user", content: "Fix the failing test." },
    ];
    const reply = await client.chat.completions.create({ model: "m", max_tokens: 8, messages: main, temperature: 0 });
    await client.chat.completions.create({ model: "m", max_tokens: 8, messages: [{ role: "user", content: "Title?" }], temperature: 0 });
    const next = await client.chat.completions.create({
      model: "m",
      max_tokens: 8,
      messages: [
        ...main,
        { role: "assistant", content: reply.choices[0].message.content || "ok" },
        { role: "user", content: "Now run it." },
      ],
      temperature: 0,
    });
    const share = next.usage!.prompt_tokens_details!.cached_tokens! / next.usage!.prompt_tokens;
    assert.ok(share >= 0.95, `cached share ${share}`);
  });

  test("GET /slots: the context's tokens and the saved conversations", async () => {
    const slots = (await (await fetch(`${cached.url}/slots`)).json()) as any[];
    assert.equal(slots.length, 1);
    const [slot] = slots;
    assert.deepEqual(Object.keys(slot), ["id", "n_ctx", "is_processing", "cached_tokens", "prompt_cache"]);
    assert.equal(slot.n_ctx, 4096);
    assert.ok(slot.cached_tokens > 1000);
    assert.equal(slot.prompt_cache.budget_bytes, 8192 * 2 ** 20);
    assert.ok(slot.prompt_cache.entries.length >= 1);
    for (const e of slot.prompt_cache.entries) {
      assert.ok(e.tokens > 0 && e.bytes > 0 && e.draft_tokens <= e.tokens);
      assert.ok(Date.now() - Date.parse(e.last_used) < 60_000);
    }
    assert.equal(
      slot.prompt_cache.used_bytes,
      slot.prompt_cache.entries.reduce((n: number, e: any) => n + e.bytes, 0),
    );
    const none = (await (await fetch(`${uncached.url}/slots`)).json()) as any[];
    assert.deepEqual(none[0].prompt_cache, { budget_bytes: 0, used_bytes: 0, entries: [] });
  });
});
