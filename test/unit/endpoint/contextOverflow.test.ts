// A context overflow as both official SDKs see it (a 400 before any stream starts, in the API's own words), and
// the recovery Claude Code makes from Anthropic's wording: read input + max_tokens > limit, retry with what fits.
import Anthropic from "@anthropic-ai/sdk";
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import OpenAI from "openai";
import { startEndpoint, type EndpointProcess } from "../../helpers/endpoint";

let endpoint: EndpointProcess;
let anthropic: Anthropic;
let openai: OpenAI;
before(async () => {
  endpoint = await startEndpoint(["--context", "256"]);
  anthropic = new Anthropic({ baseURL: endpoint.url, apiKey: "dummy", maxRetries: 0 });
  openai = new OpenAI({ baseURL: `${endpoint.url}/v1`, apiKey: "dummy", maxRetries: 0 });
});
after(() => endpoint.stop());

const hi = [{ role: "user" as const, content: "hi" }];
const long = [{ role: "user" as const, content: "word ".repeat(300) }];

async function rejection(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  assert.fail("the request succeeded");
}

test("OpenAI SDK: BadRequestError, code context_length_exceeded, param messages, streamed or not", async () => {
  for (const stream of [false, true]) {
    const e = await rejection(openai.chat.completions.create({ model: "m", messages: hi, max_tokens: 250, stream }));
    assert.ok(e instanceof OpenAI.BadRequestError, String(e));
    assert.equal(e.status, 400);
    assert.equal(e.code, "context_length_exceeded");
    assert.equal(e.param, "messages");
    assert.match(e.message, /^400 This model's maximum context length is 256 tokens\. However, you requested \d+ tokens/);
  }
});

test("Anthropic SDK: BadRequestError with invalid_request_error, streamed or not", async () => {
  for (const stream of [false, true]) {
    const e = await rejection(anthropic.messages.create({ model: "m", messages: long, max_tokens: 8, stream }));
    assert.ok(e instanceof Anthropic.BadRequestError, String(e));
    const body = e.error as { error: { type: string; message: string } };
    assert.equal(body.error.type, "invalid_request_error");
    assert.match(body.error.message, /^prompt is too long: \d+ tokens > 255 maximum$/);
  }
});

test("Claude Code's recovery: max_tokens from input length and `max_tokens` exceed context limit: A + B > C", async () => {
  // streamed, as Claude Code asks (the SDK refuses a max_tokens this large without a stream)
  const e = await rejection(anthropic.messages.stream({ model: "m", messages: hi, max_tokens: 32000 }).finalMessage());
  assert.equal(e.status, 400);
  // the pattern Claude Code matches, backticks included
  const m = /input length and `max_tokens` exceed context limit: (\d+) \+ (\d+) > (\d+)/.exec(e.message);
  assert.ok(m, e.message);
  const [input, maxTokens, limit] = m.slice(1).map(Number);
  assert.deepEqual([maxTokens, limit], [32000, 256]);
  const retried = await anthropic.messages.create({ model: "m", messages: hi, max_tokens: limit - input });
  assert.equal(retried.type, "message");
  assert.equal(retried.usage.input_tokens + retried.usage.cache_read_input_tokens!, input);
});
