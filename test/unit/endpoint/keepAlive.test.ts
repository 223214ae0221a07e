// A stream that waits (here: queued behind a long generation, as a long prefill waits) starts at once and
// keeps sending events its API's parser yields: OpenAI chat chunks with an empty delta, completion chunks with
// empty text, Responses `keepalive` events, Anthropic `event: ping`. Each stream, replayed to the official SDK
// (openai, @anthropic-ai/sdk), still parses into the whole answer.
import Anthropic from "@anthropic-ai/sdk";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import OpenAI from "openai";
import { startEndpoint, type EndpointProcess } from "../../helpers/endpoint";

let endpoint: EndpointProcess;
before(async () => {
  endpoint = await startEndpoint(["--context", "16384", "--sse-ping-interval", "0.02"]);
});
after(() => endpoint.stop());

/** A long generation that holds the queue until aborted; resolves once it is generating. */
async function hold(): Promise<AbortController> {
  const controller = new AbortController();
  const res = await fetch(`${endpoint.url}/v1/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m", prompt: "a", max_tokens: 16000, ignore_eos: true, stream: true, sse_ping_interval: -1 }),
    signal: controller.signal,
  });
  const reader = res.body!.getReader();
  // the first chunk with text: the slot is taken
  for (let text = ""; !/"text":"[^"]/.test(text);) text += new TextDecoder().decode((await reader.read()).value);
  void reader.read().catch(() => {});
  return controller;
}

/**
 * The raw text of a stream queued behind hold(); the held generation is let go once `waited` says the stream
 * has sent its keep-alives, so everything before that was sent while nothing of its own could be generated.
 */
async function whileQueued(path: string, body: object, waited: (text: string) => boolean): Promise<string> {
  const held = await hold();
  const res = await fetch(`${endpoint.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...body, stream: true }),
  });
  assert.equal(res.status, 200);
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of res.body!) {
    text += decoder.decode(chunk as Uint8Array, { stream: true });
    if (!held.signal.aborted && waited(text)) held.abort();
  }
  assert.ok(held.signal.aborted, `the stream ended while queued:\n${text}`);
  return text;
}

/** Serves one recorded stream to whatever asks, for an SDK to parse. */
async function replay(text: string, use: (url: string) => Promise<void>): Promise<void> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(text);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.close();
  }
}

const count = (text: string, s: string) => text.split(s).length - 1;

test("chat completions: the role chunk at once, empty deltas while queued; the openai SDK yields them and assembles the answer", async () => {
  const text = await whileQueued("/v1/chat/completions", { model: "m", messages: [{ role: "user", content: "Hi" }], max_tokens: 4 }, (t) =>
    t.includes('"delta":{},"finish_reason":null'),
  );
  assert.match(text.split("\n\n")[0], /"delta":\{"role":"assistant","content":""\}/);
  await replay(text, async (url) => {
    const openai = new OpenAI({ baseURL: url, apiKey: "dummy", maxRetries: 0 });
    const chunks = [];
    for await (const c of await openai.chat.completions.create({ model: "m", messages: [], stream: true })) chunks.push(c);
    assert.ok(chunks.filter((c) => c.choices[0]?.delta && Object.keys(c.choices[0].delta).length === 0).length >= 2);
    assert.equal(chunks.at(-1)!.choices[0].finish_reason, "length");
    const final = await openai.chat.completions.stream({ model: "m", messages: [] }).finalChatCompletion();
    assert.equal(final.choices[0].finish_reason, "length");
  });
});

test("completions: a first chunk at once, empty text chunks while queued; the openai SDK parses them", async () => {
  const text = await whileQueued("/v1/completions", { model: "m", prompt: "Hi", max_tokens: 4 }, (t) => count(t, '"text":""') >= 2);
  await replay(text, async (url) => {
    const openai = new OpenAI({ baseURL: url, apiKey: "dummy", maxRetries: 0 });
    const chunks = [];
    for await (const c of await openai.completions.create({ model: "m", prompt: "", stream: true })) chunks.push(c);
    assert.equal(chunks.at(-1)!.choices[0].finish_reason, "length");
  });
});

test("responses: created and in_progress at once, keepalive events while queued; responses.stream assembles the response", async () => {
  const text = await whileQueued("/v1/responses", { model: "m", input: "Hi", max_output_tokens: 4 }, (t) => t.includes("event: keepalive"));
  assert.match(text, /^event: response\.created\n[^]*?\n\nevent: response\.in_progress\n[^]*?\n\nevent: keepalive\n/);
  await replay(text, async (url) => {
    const openai = new OpenAI({ baseURL: url, apiKey: "dummy", maxRetries: 0 });
    const stream = openai.responses.stream({ model: "m", input: "" });
    const types: string[] = [];
    for await (const e of stream) types.push(e.type);
    assert.ok(types.includes("keepalive"), types.join());
    const final = await stream.finalResponse();
    assert.equal(final.status, "incomplete");
    assert.equal(final.usage!.output_tokens, 4);
  });
});

test("Anthropic messages: event: ping while queued, as Anthropic's API sends them; the SDK skips them and assembles the message", async () => {
  const text = await whileQueued(
    "/v1/messages",
    { model: "m", max_tokens: 4, messages: [{ role: "user", content: "Hi" }] },
    (t) => count(t, "event: ping") >= 2,
  );
  assert.doesNotMatch(text, /^: ping/m, "no comment-only keep-alives");
  await replay(text, async (url) => {
    const anthropic = new Anthropic({ baseURL: url, apiKey: "dummy", maxRetries: 0 });
    const final = await anthropic.messages.stream({ model: "m", max_tokens: 4, messages: [] }).finalMessage();
    assert.equal(final.stop_reason, "max_tokens");
  });
});
