// Bad requests get each API's own error envelope with a message that says what and where, never a crash.
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import type { IncomingMessage } from "node:http";
import { after, before, describe, test } from "node:test";
import { readJsonBody } from "../../../native/endpoint/http/body";
import { ApiError } from "../../../native/endpoint/http/errors";
import { postJson, startEndpoint, type EndpointProcess } from "../../helpers/endpoint";

let endpoint: EndpointProcess;
before(async () => {
  // reject: the OpenAI route's context_length_exceeded wording for a max_tokens past the room is checked here
  endpoint = await startEndpoint(["--context", "256", "--max-tokens-overflow", "reject"]);
});
after(() => endpoint.stop());

const chat = (body: unknown) => postJson(`${endpoint.url}/v1/chat/completions`, body);
const messages = (body: unknown) => postJson(`${endpoint.url}/v1/messages`, body);
const hi = [{ role: "user", content: "hi" }];

/** OpenAI's envelope, exactly these four fields. */
function openaiError(r: { status: number; json: any }, status: number, message: RegExp | string, param: string | null = null) {
  assert.equal(r.status, status);
  assert.deepEqual(Object.keys(r.json.error).sort(), ["code", "message", "param", "type"]);
  if (typeof message === "string") assert.equal(r.json.error.message, message);
  else assert.match(r.json.error.message, message);
  assert.equal(r.json.error.param, param);
  return r.json.error;
}

function anthropicError(r: { status: number; json: any }, status: number, type: string, message: RegExp | string) {
  assert.equal(r.status, status);
  assert.equal(r.json.type, "error");
  assert.equal(r.json.error.type, type);
  if (typeof message === "string") assert.equal(r.json.error.message, message);
  else assert.match(r.json.error.message, message);
}

describe("malformed JSON", () => {
  test("OpenAI: invalid_json with the line and column", async () => {
    const e = openaiError(
      await chat('{"model": "m",\n "messages": [}'),
      400,
      "request body is not valid JSON: Expecting value at line 2, column 15",
    );
    assert.equal(e.type, "invalid_request_error");
    assert.equal(e.code, "invalid_json");
  });

  test("Anthropic: invalid_request_error with the line and column", async () => {
    anthropicError(
      await messages('{"model": "m" "max_tokens": 1}'),
      400,
      "invalid_request_error",
      /^request body is not valid JSON: Expecting ',' delimiter at line 1, column 15$/,
    );
  });

  test("an empty body and a body that is not an object", async () => {
    openaiError(await chat(""), 400, "request body is empty: send a JSON object");
    openaiError(await chat("[1, 2]"), 400, "request body: must be a JSON object, got an array");
    anthropicError(await messages('"text"'), 400, "invalid_request_error", 'request body: must be a JSON object, got string "text"');
  });
});

describe("missing and wrongly typed fields", () => {
  test("missing model or messages", async () => {
    openaiError(await chat({ messages: hi }), 400, "model: required field is missing", "model");
    openaiError(await chat({ model: "m" }), 400, "messages: required field is missing", "messages");
    openaiError(await chat({ model: "m", messages: [] }), 400, "messages: must contain at least one message", "messages");
    anthropicError(await messages({ max_tokens: 5, messages: hi }), 400, "invalid_request_error", "model: required field is missing");
    anthropicError(await messages({ model: "m", max_tokens: 5 }), 400, "invalid_request_error", "messages: required field is missing");
    anthropicError(await messages({ model: "m", messages: hi }), 400, "invalid_request_error", "max_tokens: required field is missing");
  });

  test("OpenAI: known fields of the wrong type name the field and what it got", async () => {
    openaiError(
      await chat({ model: "m", messages: hi, temperature: "hot" }),
      400,
      'temperature: must be a number, got string "hot"',
      "temperature",
    );
    openaiError(
      await chat({ model: "m", messages: hi, max_tokens: 1.5 }),
      400,
      "max_tokens: must be an integer, got number 1.5",
      "max_tokens",
    );
    openaiError(await chat({ model: "m", messages: hi, stream: "yes" }), 400, 'stream: must be a boolean, got string "yes"', "stream");
    openaiError(await chat({ model: "m", messages: "hi" }), 400, 'messages: must be an array, got string "hi"', "messages");
    openaiError(
      await chat({ model: "m", messages: [{ role: "user", content: 5 }] }),
      400,
      "messages[0].content: must be a string or an array of content parts",
      "messages[0].content",
    );
    openaiError(
      await chat({ model: "m", messages: [{ role: "robot", content: "x" }] }),
      400,
      /^messages\[0\]\.role: must be one of system, developer, user, assistant, tool/,
      "messages[0].role",
    );
    openaiError(await chat({ model: "m", messages: hi, stop: ["a", 3] }), 400, "stop[1]: must be a string, got number 3", "stop[1]");
    openaiError(await chat({ model: "m", messages: hi, top_p: 2 }), 400, "top_p: must be from 0 to 1, got 2", "top_p");
    openaiError(
      await chat({ model: "m", messages: hi, tool_choice: "always" }),
      400,
      /^tool_choice: must be "auto", "none", "required"/,
      "tool_choice",
    );
    openaiError(await chat({ model: "m", messages: hi, n: 2 }), 400, "n: only 1 choice per request is supported", "n");
  });

  test("Anthropic: known fields of the wrong type name the field and what it got", async () => {
    anthropicError(
      await messages({ model: "m", max_tokens: "5", messages: hi }),
      400,
      "invalid_request_error",
      'max_tokens: must be an integer, got string "5"',
    );
    anthropicError(
      await messages({ model: "m", max_tokens: 5, messages: hi, temperature: 1.5 }),
      400,
      "invalid_request_error",
      "temperature: must be from 0 to 1, got 1.5",
    );
    anthropicError(
      await messages({ model: "m", max_tokens: 5, messages: [{ role: "tool", content: "x" }] }),
      400,
      "invalid_request_error",
      `messages[0].role: must be "user", "assistant" or "system", got 'tool'`,
    );
    anthropicError(
      await messages({
        model: "m",
        max_tokens: 5,
        messages: [{ role: "user", content: [{ type: "tool_use", id: "t", name: "f", input: {} }] }],
      }),
      400,
      "invalid_request_error",
      "messages[0].content[0].type: 'tool_use' blocks belong in assistant messages",
    );
    anthropicError(
      await messages({ model: "m", max_tokens: 5, messages: hi, tools: [{ type: "web_search_20250305", name: "web_search" }] }),
      400,
      "invalid_request_error",
      /^tools\[0\]\.type: server tools/,
    );
    anthropicError(
      await messages({ model: "m", max_tokens: 5, messages: hi, tool_choice: { type: "sometimes" } }),
      400,
      "invalid_request_error",
      /^tool_choice\.type: must be/,
    );
  });

  test("what the chat layer refuses keeps its message", async () => {
    const tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];
    openaiError(
      await chat({ model: "m", messages: hi, tools, tool_choice: { type: "function", function: { name: "g" } } }),
      400,
      'tool_choice names function "g", which is not in tools',
    );
  });
});

describe("context overflow: each API's own words, counting what the client sent", () => {
  const long = "word ".repeat(300);
  test("OpenAI: context_length_exceeded, with max_tokens and without", async () => {
    const e = openaiError(
      await chat({ model: "m", messages: [{ role: "user", content: "hi" }], max_tokens: 250 }),
      400,
      /^This model's maximum context length is 256 tokens\. However, you requested \d+ tokens \(\d+ in the messages, 250 in the completion\)\. Please reduce the length of the messages or completion\.$/,
      "messages",
    );
    assert.equal(e.code, "context_length_exceeded");
    assert.equal(e.type, "invalid_request_error");
    const [requested, prompt] = e.message.match(/\d+/g)!.slice(1).map(Number);
    assert.equal(requested, prompt + 250);
    // without max_tokens only the prompt counts: no max_tokens the client never sent
    openaiError(
      await chat({ model: "m", messages: [{ role: "user", content: long }] }),
      400,
      /^This model's maximum context length is 256 tokens\. However, your messages resulted in \d+ tokens\. Please reduce the length of the messages\.$/,
      "messages",
    );
  });

  test("Anthropic: prompt is too long when the input alone is, else input length and `max_tokens` exceed context limit", async () => {
    anthropicError(
      await messages({ model: "m", max_tokens: 300, messages: hi }),
      400,
      "invalid_request_error",
      /^input length and `max_tokens` exceed context limit: \d+ \+ 300 > 256, decrease input length or `max_tokens` and try again$/,
    );
    // one token must be left to generate
    anthropicError(
      await messages({ model: "m", max_tokens: 1, messages: [{ role: "user", content: long }] }),
      400,
      "invalid_request_error",
      /^prompt is too long: \d+ tokens > 255 maximum$/,
    );
  });

  test("completions: the raw prompt's tokens count, in the completions wording", async () => {
    const r = await postJson(`${endpoint.url}/v1/completions`, { model: "m", prompt: long, max_tokens: 4 });
    openaiError(
      r,
      400,
      /^This model's maximum context length is 256 tokens, however you requested \d+ tokens \(\d+ in your prompt; 4 for the completion\)\. Please reduce your prompt; or completion length\.$/,
      "prompt",
    );
    const bare = await postJson(`${endpoint.url}/v1/completions`, { model: "m", prompt: long });
    openaiError(bare, 400, /, however you requested (\d+) tokens \(\1 in your prompt; 0 for the completion\)/, "prompt");
  });
});

describe("routes", () => {
  test("an unknown route is a 404, a wrong method a 405 with Allow", async () => {
    const missing = await fetch(`${endpoint.url}/v2/chat`);
    openaiError({ status: missing.status, json: await missing.json() }, 404, /^no route GET \/v2\/chat/);
    const wrong = await fetch(`${endpoint.url}/v1/messages`);
    assert.equal(wrong.headers.get("allow"), "POST");
    anthropicError({ status: wrong.status, json: await wrong.json() }, 405, "invalid_request_error", "/v1/messages takes POST, not GET");
  });

  test("after all that the endpoint still answers", async () => {
    const r = await chat({ model: "m", messages: hi, max_tokens: 2 });
    assert.equal(r.status, 200);
  });
});

test("a body over the limit is refused with 413 before it is all read", async () => {
  const body = Object.assign(Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), {
    headers: { "content-type": "application/json" },
  }) as unknown as IncomingMessage;
  await assert.rejects(
    readJsonBody(body, 1000),
    (e: unknown) => e instanceof ApiError && e.status === 413 && e.kind === "too_large" && e.message.includes("1000 bytes"),
  );
});
