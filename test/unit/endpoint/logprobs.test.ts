// OpenAI logprobs on chat completions (logprobs + top_logprobs) and completions (logprobs N), streamed and not,
// through the official client, on the demo models.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import OpenAI from "openai";
import { postJson, startEndpoint, type EndpointProcess } from "../../helpers/endpoint";

let endpoint: EndpointProcess;
let client: OpenAI;
before(async () => {
  // full blocks: the adaptive draft length can split the two requests into other verification batches,
  // whose arithmetic differs in the last bits of a logprob
  endpoint = await startEndpoint(["--draft-adaptive", "off"]);
  client = new OpenAI({ baseURL: `${endpoint.url}/v1`, apiKey: "unused", maxRetries: 0 });
});
after(() => endpoint.stop());

const messages = [{ role: "user" as const, content: "Count to ten." }];
// greedy, and as many tokens as asked for: every token has an entry
const params = {
  model: "m",
  messages,
  max_tokens: 10,
  temperature: 0,
  logprobs: true,
  top_logprobs: 3,
  ignore_eos: true,
} as OpenAI.ChatCompletionCreateParamsNonStreaming;

describe("logprobs", () => {
  test("chat: one entry per token with its bytes and the 3 most likely; greedy picks the first of them", async () => {
    const r = await client.chat.completions.create(params);
    const content = r.choices[0].logprobs!.content!;
    assert.equal(content.length, r.usage!.completion_tokens);
    for (const e of content) {
      assert.equal(e.top_logprobs.length, 3);
      assert.ok(e.logprob <= 0);
      assert.deepEqual({ ...e.top_logprobs[0] }, { token: e.token, logprob: e.logprob, bytes: e.bytes });
      assert.equal(e.token, new TextDecoder().decode(Uint8Array.from(e.bytes!)));
      for (let i = 1; i < 3; i++) assert.ok(e.top_logprobs[i - 1].logprob >= e.top_logprobs[i].logprob);
    }
    assert.equal(r.choices[0].logprobs!.refusal, null);
    const none = await client.chat.completions.create({ ...params, logprobs: undefined, top_logprobs: undefined });
    assert.equal(none.choices[0].logprobs, null);
  });

  test("chat stream: the chunks' entries, together, are the non-streamed ones", async () => {
    const whole = await client.chat.completions.create(params);
    const stream = await client.chat.completions.create({ ...params, stream: true });
    const streamed: OpenAI.ChatCompletionTokenLogprob[] = [];
    for await (const chunk of stream) streamed.push(...(chunk.choices[0]?.logprobs?.content ?? []));
    assert.deepEqual(streamed, whole.choices[0].logprobs!.content);
  });

  test("completions: the legacy shape, whose tokens spell the text", async () => {
    const body = { model: "m", prompt: "Once upon a time", max_tokens: 8, temperature: 0, logprobs: 2, ignore_eos: true };
    const r = await client.completions.create(body as OpenAI.CompletionCreateParamsNonStreaming);
    const lp = r.choices[0].logprobs!;
    assert.equal(lp.tokens!.length, 8);
    assert.equal(lp.tokens!.join(""), r.choices[0].text);
    assert.deepEqual(
      lp.text_offset,
      lp.tokens!.map((_, i) => lp.tokens!.slice(0, i).join("").length),
    );
    lp.top_logprobs!.forEach((top, i) => {
      assert.equal(Object.keys(top).length <= 2, true);
      assert.equal(Math.max(...Object.values(top)), lp.token_logprobs![i]);
    });
    const stream = await client.completions.create({ ...body, stream: true } as OpenAI.CompletionCreateParamsStreaming);
    const tokens: string[] = [];
    const offsets: number[] = [];
    for await (const chunk of stream) {
      tokens.push(...(chunk.choices[0]?.logprobs?.tokens ?? []));
      offsets.push(...(chunk.choices[0]?.logprobs?.text_offset ?? []));
    }
    assert.deepEqual([tokens, offsets], [lp.tokens, lp.text_offset]);
  });

  test("bad requests name the field", async () => {
    for (const [body, param] of [
      [{ top_logprobs: 2 }, "top_logprobs"],
      [{ logprobs: true, top_logprobs: 21 }, "top_logprobs"],
      [{ logprobs: "yes" }, "logprobs"],
    ] as const) {
      const r = await postJson(`${endpoint.url}/v1/chat/completions`, { model: "m", messages, max_tokens: 1, ...body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.json.error.param, param);
    }
    const r = await postJson(`${endpoint.url}/v1/completions`, { model: "m", prompt: "x", max_tokens: 1, logprobs: 21 });
    assert.deepEqual([r.status, r.json.error.param], [400, "logprobs"]);
  });
});
