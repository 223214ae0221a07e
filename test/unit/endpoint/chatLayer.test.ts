// What the engine's chat layer refuses or reads back reaches clients in each API's own shape: a template that
// raises while a request is rendered, requests the engine refuses, and a prefilled assistant message.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";
import { postJson, rawStream, startEndpoint, storageDir, type EndpointProcess } from "../../helpers/endpoint";

// Qwen3's template, refusing one message the way templates refuse roles or orders they do not take
const LOOP = "{%- for message in messages %}";
const RAISING = QWEN3_CHAT_TEMPLATE.replace(
  LOOP,
  `${LOOP}{%- if message.content == 'boom' %}{{- raise_exception('this template refuses boom') }}{%- endif %}`,
);

let endpoint: EndpointProcess;
before(async () => {
  assert.notEqual(RAISING, QWEN3_CHAT_TEMPLATE);
  const file = join(storageDir, "raising.jinja");
  writeFileSync(file, RAISING);
  endpoint = await startEndpoint(["--chat-template-file", file]);
});
after(() => endpoint.stop());

const post = (route: string, body: object) => postJson(`${endpoint.url}${route}`, body);
const boom = [{ role: "user", content: "boom" }];
const REFUSED = /^chat template failed: [\s\S]*Jinja Exception: this template refuses boom$/;

describe("a template that raises while the request is rendered", () => {
  test("OpenAI: a 400 invalid_request_error with the template's message, streamed or not", async () => {
    for (const stream of [false, true]) {
      const r = await post("/v1/chat/completions", { model: "m", messages: boom, max_tokens: 4, stream });
      assert.equal(r.status, 400);
      assert.equal(r.json.error.type, "invalid_request_error");
      assert.match(r.json.error.message, REFUSED);
    }
  });

  test("Anthropic: a 400 invalid_request_error with the template's message, for messages and count_tokens", async () => {
    for (const route of ["/v1/messages", "/v1/messages/count_tokens"]) {
      const r = await post(route, { model: "m", max_tokens: 4, messages: boom });
      assert.equal(r.status, 400, route);
      assert.deepEqual([r.json.type, r.json.error.type], ["error", "invalid_request_error"]);
      assert.match(r.json.error.message, REFUSED);
    }
  });

  test("other messages are served", async () => {
    assert.equal(
      (await post("/v1/chat/completions", { model: "m", messages: [{ role: "user", content: "hi" }], max_tokens: 2 })).status,
      200,
    );
  });
});

describe("requests the engine refuses are the client's errors, with the engine's message", () => {
  test("an unknown reasoning_format", async () => {
    const r = await post("/v1/chat/completions", {
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 2,
      reasoning_format: "bogus",
    });
    assert.equal(r.status, 400);
    assert.match(r.json.error.message, /^reasoning_format must be "none", "auto", "deepseek" or "deepseek-legacy", got "bogus"$/);
  });

  test("ignore_eos with a response format the output completes", async () => {
    const format = { type: "json_schema", json_schema: { name: "b", schema: { type: "boolean" } } };
    const r = await post("/v1/chat/completions", {
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 40,
      ignore_eos: true,
      response_format: format,
    });
    assert.equal(r.status, 400);
    assert.match(r.json.error.message, /^the grammar is complete but the end of generation is banned/);
  });
});

describe("a prefilled assistant message", () => {
  const PREFILL = "PREFILL-MARKER";
  const conversation = [
    { role: "user", content: "hi" },
    { role: "assistant", content: PREFILL },
  ];

  test("OpenAI: the message is what the model wrote after the prefill, streamed and not", async () => {
    const request = { model: "m", messages: conversation, max_tokens: 8, temperature: 0 };
    const whole = await post("/v1/chat/completions", request);
    assert.equal(whole.status, 200);
    const content: string = whole.json.choices[0].message.content ?? "";
    assert.ok(!content.includes(PREFILL), JSON.stringify(content));
    const s = await rawStream(`${endpoint.url}/v1/chat/completions`, { ...request, stream: true });
    const streamed = s.events
      .filter((e) => e.data !== "[DONE]")
      .map((e) => e.data.choices[0]?.delta?.content ?? "")
      .join("");
    assert.equal(streamed, content);
  });

  test("Anthropic: the text is what the model wrote after the prefill, streamed and not", async () => {
    const request = { model: "m", messages: conversation, max_tokens: 8, temperature: 0 };
    const whole = await post("/v1/messages", request);
    assert.equal(whole.status, 200);
    const text = whole.json.content.map((b: { text?: string }) => b.text ?? "").join("");
    assert.ok(!text.includes(PREFILL), JSON.stringify(text));
    const s = await rawStream(`${endpoint.url}/v1/messages`, { ...request, stream: true });
    const streamed = s.events
      .map((e) => (e.event === "content_block_delta" && e.data.delta.type === "text_delta" ? e.data.delta.text : ""))
      .join("");
    assert.equal(streamed, text);
  });
});
