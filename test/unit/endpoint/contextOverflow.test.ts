// A context overflow as both official SDKs see it (a 400 before any stream starts, in the API's own words), and
// the recovery Claude Code makes from Anthropic's wording: read input + max_tokens > limit, retry with what fits.
// On the OpenAI routes a max_tokens past the room left is cut to it (as llama-server does; agents such as
// qwen-code ask for 64000 and have no recovery), unless --max-tokens-overflow reject.
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

test("OpenAI SDK: a prompt that does not fit is a BadRequestError, code context_length_exceeded, param messages, streamed or not", async () => {
  for (const stream of [false, true]) {
    const e = await rejection(openai.chat.completions.create({ model: "m", messages: long, max_tokens: 8, stream }));
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

test("OpenAI routes: max_tokens past the room left is cut to it, the answer ends with length (incomplete on responses)", async () => {
  const chat = await openai.chat.completions.create({
    model: "m",
    messages: hi,
    max_tokens: 64000,
    ignore_eos: true,
  } as object as OpenAI.ChatCompletionCreateParamsNonStreaming);
  assert.equal(chat.choices[0].finish_reason, "length");
  assert.equal(chat.usage!.prompt_tokens + chat.usage!.completion_tokens, 256);
  const completion = await openai.completions.create({
    model: "m",
    prompt: "hi",
    max_tokens: 64000,
    ignore_eos: true,
  } as object as OpenAI.CompletionCreateParamsNonStreaming);
  assert.equal(completion.choices[0].finish_reason, "length");
  assert.equal(completion.usage!.prompt_tokens + completion.usage!.completion_tokens, 256);
  const response = await openai.responses.create({ model: "m", input: "hi", max_output_tokens: 64000 });
  // the random model may end its turn before the context does; when it does not, the cut says so
  if (response.usage!.input_tokens + response.usage!.output_tokens === 256)
    assert.deepEqual(response.incomplete_details, { reason: "max_output_tokens" });
  else assert.equal(response.status, "completed");
  // the Anthropic route keeps its 400 (above): Claude Code recovers from it
});

test("--max-tokens-overflow reject: the OpenAI routes refuse it as before", async () => {
  const strict = await startEndpoint(["--context", "256", "--max-tokens-overflow", "reject"]);
  try {
    const client = new OpenAI({ baseURL: `${strict.url}/v1`, apiKey: "dummy", maxRetries: 0 });
    const e = await rejection(client.chat.completions.create({ model: "m", messages: hi, max_tokens: 250 }));
    assert.equal(e.code, "context_length_exceeded");
    const r = await rejection(client.responses.create({ model: "m", input: "hi", max_output_tokens: 250 }));
    assert.equal(r.code, "context_length_exceeded");
    assert.equal(r.param, "input");
  } finally {
    await strict.stop();
  }
});
