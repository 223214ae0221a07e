// What llama-server users reach for while debugging a template, on the demo models: /apply-template (both APIs'
// shapes: the exact prompt, checked against the token counts the generating routes report), /tokenize,
// /detokenize, /props; `grammar`, `json_schema`, `logit_bias`, `n_predict`; and llama-server's fields that are
// not implemented, a 400 naming the field unless they ask for what the endpoint does anyway.
import Anthropic from "@anthropic-ai/sdk";
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import OpenAI from "openai";
import { postJson, rawStream, startEndpoint, WEATHER_TOOL, type EndpointProcess } from "../../helpers/endpoint";

let endpoint: EndpointProcess;
let openai: OpenAI;
let anthropic: Anthropic;
before(async () => {
  endpoint = await startEndpoint();
  openai = new OpenAI({ baseURL: `${endpoint.url}/v1`, apiKey: "unused", maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: endpoint.url, apiKey: "unused", maxRetries: 0 });
});
after(() => endpoint.stop());

const post = (path: string, body: unknown) => postJson(`${endpoint.url}${path}`, body);
/** The prompt's tokens as the generating routes count them (no BOS added: a rendered template has its own). */
const tokenCount = async (prompt: string) => (await post("/tokenize", { content: prompt })).json.tokens.length as number;
const messages = [
  { role: "system" as const, content: "Be brief." },
  { role: "user" as const, content: "Weather in Paris?" },
];

describe("/apply-template", () => {
  test("OpenAI shape: the prompt a chat completion generates from (its prompt_tokens), tools rendered", async () => {
    const body = { messages, tools: [WEATHER_TOOL] };
    const r = await post("/apply-template", body);
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.json), ["prompt"]);
    assert.match(r.json.prompt, /get_weather/);
    assert.match(r.json.prompt, /Weather in Paris\?/);
    const chat = await openai.chat.completions.create({ model: "m", max_tokens: 1, ...body });
    assert.equal(await tokenCount(r.json.prompt), chat.usage!.prompt_tokens);
  });

  test("Anthropic shape at /v1/messages/apply-template: the prompt count_tokens counts; its errors in Anthropic's envelope", async () => {
    const body = { model: "m", system: "Be brief.", messages: [{ role: "user", content: "Weather in Paris?" }] };
    const r = await post("/v1/messages/apply-template", body);
    assert.equal(r.status, 200);
    assert.match(r.json.prompt, /Be brief\.[\s\S]*Weather in Paris\?/);
    const counted = await anthropic.messages.countTokens(body as Anthropic.MessageCountTokensParams);
    assert.equal(await tokenCount(r.json.prompt), counted.input_tokens);
    const bad = await post("/v1/messages/apply-template", { model: "m", messages: [] });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.json, {
      type: "error",
      error: { type: "invalid_request_error", message: "messages: must contain at least one message" },
    });
  });

  test("a malformed request is a 400 naming the field", async () => {
    const r = await post("/apply-template", { messages: [{ role: "wizard", content: "x" }] });
    assert.equal(r.status, 400);
    assert.equal(r.json.error.param, "messages[0].role");
  });
});

describe("/tokenize, /detokenize", () => {
  test("llama-server's defaults: special tokens parsed, no BOS; parse_special false reads them as text", async () => {
    const special = (await post("/tokenize", { content: "<|im_start|>" })).json.tokens;
    assert.equal(special.length, 1);
    const plain = (await post("/tokenize", { content: "<|im_start|>", parse_special: false })).json.tokens;
    assert.ok(plain.length > 1);
  });

  test("with_pieces: each token's text, or its bytes where they are part of a UTF-8 character; together the content", async () => {
    const content = "Héllo 😀 world";
    const r = await post("/tokenize", { content, with_pieces: true });
    assert.equal(r.status, 200);
    const bytes = r.json.tokens.flatMap((t: { id: number; piece: string | number[] }) => {
      assert.ok(Number.isInteger(t.id));
      return typeof t.piece === "string" ? [...Buffer.from(t.piece)] : t.piece;
    });
    assert.deepEqual(Buffer.from(bytes), Buffer.from(content));
    assert.ok(
      r.json.tokens.some((t: { piece: unknown }) => Array.isArray(t.piece)),
      "the demo vocabulary splits 😀 into bytes",
    );
  });

  test("detokenize reverses tokenize, special tokens as their text; an id outside the vocabulary is a 400 naming it", async () => {
    const content = "<|im_start|>user\nHi there";
    const { tokens } = (await post("/tokenize", { content })).json;
    assert.deepEqual((await post("/detokenize", { tokens })).json, { content });
    const bad = await post("/detokenize", { tokens: [1, 10_000_000] });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error.param, "tokens[1]");
    assert.equal((await post("/tokenize", {})).json.error.message, "content: required field is missing");
  });
});

test("/props: context, template and its caps, build, in llama-server's shape", async () => {
  const props = (await (await fetch(`${endpoint.url}/props`)).json()) as any;
  assert.equal(props.default_generation_settings.n_ctx, 4096);
  assert.equal(props.default_generation_settings.speculative, true);
  assert.equal(props.default_generation_settings.params.temperature, 0.8);
  assert.equal(props.total_slots, 1);
  assert.equal(props.model_alias, "demo-random");
  assert.match(props.model_path, /demo-random-target\.gguf$/);
  assert.match(props.chat_template, /<\|im_start\|>/);
  assert.equal(props.chat_template_caps.supports_tool_calls, true);
  assert.equal(props.chat_template_caps.supports_system_role, true);
  assert.match(props.build_info, /^b\d+-[0-9a-f]+$/);
  assert.deepEqual(props.modalities, { vision: false, audio: false });
  assert.equal(props.is_sleeping, false);
});

describe("grammar and json_schema", () => {
  const yesNo = 'root ::= "yes" | "no"';

  test("chat (both APIs) and completions: the output matches the grammar", async () => {
    const chat = await openai.chat.completions.create({
      model: "m",
      max_tokens: 20,
      messages,
      grammar: yesNo,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    assert.match(chat.choices[0].message.content!, /^(yes|no)$/);
    assert.equal(chat.choices[0].finish_reason, "stop");
    const message = await anthropic.messages.create({
      model: "m",
      max_tokens: 20,
      messages: [{ role: "user", content: "Hi" }],
      grammar: yesNo,
    } as Anthropic.MessageCreateParamsNonStreaming);
    assert.deepEqual(
      message.content.map((b) => (b.type === "text" ? b.text : b.type)).join(""),
      (message.content[0] as Anthropic.TextBlock).text,
    );
    assert.match((message.content[0] as Anthropic.TextBlock).text, /^(yes|no)$/);
    const completion = await openai.completions.create({
      model: "m",
      max_tokens: 20,
      prompt: "Hi",
      grammar: yesNo,
    } as OpenAI.CompletionCreateParamsNonStreaming);
    assert.match(completion.choices[0].text, /^(yes|no)$/);
  });

  test("json_schema: the output parses and holds to the schema", async () => {
    const json_schema = { type: "object", properties: { a: { type: "integer", enum: [7] } }, required: ["a"] };
    const completion = await openai.completions.create({
      model: "m",
      max_tokens: 64,
      prompt: "Hi",
      json_schema,
      temperature: 0,
    } as OpenAI.CompletionCreateParamsNonStreaming);
    assert.deepEqual(JSON.parse(completion.choices[0].text), { a: 7 }, JSON.stringify(completion.choices[0]));
    // thinking off: the schema holds after the reasoning, which a random model does not end
    const chat = await openai.chat.completions.create({
      model: "m",
      max_tokens: 64,
      messages,
      json_schema,
      temperature: 0,
      chat_template_kwargs: { enable_thinking: false },
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    assert.deepEqual(JSON.parse(chat.choices[0].message.content!), { a: 7 }, JSON.stringify(chat.choices[0]));
  });

  test("a grammar that does not parse, or one beside a schema, is a 400", async () => {
    const bad = await post("/v1/completions", { model: "m", prompt: "Hi", max_tokens: 4, grammar: "root ::= [" });
    assert.equal(bad.status, 400);
    assert.match(bad.json.error.message, /^grammar does not parse/);
    const both = await post("/v1/chat/completions", { model: "m", messages, max_tokens: 4, grammar: yesNo, json_schema: {} });
    assert.equal(both.status, 400);
    assert.equal(both.json.error.param, "grammar");
    const format = await post("/v1/chat/completions", {
      model: "m",
      messages,
      max_tokens: 4,
      grammar: yesNo,
      response_format: { type: "json_object" },
    });
    assert.equal(format.status, 400);
    assert.equal(format.json.error.param, "grammar");
  });
});

describe("sampling fields", () => {
  test("logit_bias bans a token (OpenAI's -100 and llama-server's false); n_predict limits the output", async () => {
    const params = { model: "m", prompt: "Once upon a time", max_tokens: 1, temperature: 0 };
    const first = (await post("/v1/completions", params)).json.choices[0].text as string;
    const [token] = (await post("/tokenize", { content: first })).json.tokens;
    for (const logit_bias of [{ [token]: -100 }, [[token, false]]]) {
      const r = await post("/v1/completions", { ...params, logit_bias });
      assert.equal(r.status, 200, JSON.stringify(r.json));
      assert.notEqual(r.json.choices[0].text, first);
    }
    const outOfRange = await post("/v1/completions", { ...params, logit_bias: { 5: 101 } });
    assert.equal(outOfRange.json.error.param, "logit_bias.5");
    const n = await post("/v1/completions", { model: "m", prompt: "Hi", n_predict: 3, ignore_eos: true });
    assert.equal(n.json.usage.completion_tokens, 3);
    assert.equal(n.json.choices[0].finish_reason, "length");
  });
});

describe("fields not implemented", () => {
  test("a 400 naming the field, in each API's envelope", async () => {
    const chat = await post("/v1/chat/completions", { model: "m", messages, n_probs: 3 });
    assert.equal(chat.status, 400);
    assert.deepEqual(chat.json.error, {
      message: "n_probs: is not supported (use logprobs and top_logprobs); got 3",
      type: "invalid_request_error",
      param: "n_probs",
      code: null,
    });
    for (const [field, value] of [
      ["cache_prompt", false],
      ["id_slot", 2],
      ["mirostat", 2],
      ["samplers", ["top_k"]],
      ["typical_p", 0.5],
      ["functions", []],
    ] as const) {
      const r = await post("/v1/chat/completions", { model: "m", messages, max_tokens: 1, [field]: value });
      assert.equal(r.status, 400, field);
      assert.equal(r.json.error.param, field);
    }
    const completion = await post("/v1/completions", { model: "m", prompt: "Hi", max_tokens: 1, dry_multiplier: 0.8 });
    assert.equal(completion.json.error.param, "dry_multiplier");
    const message = await post("/v1/messages", { model: "m", max_tokens: 1, messages: [{ role: "user", content: "Hi" }], id_slot: 2 });
    assert.deepEqual(message.json, {
      type: "error",
      error: { type: "invalid_request_error", message: "id_slot: is not supported (there is one slot, 0); got 2" },
    });
  });

  test("values that ask for what the endpoint does anyway are accepted (clients send their whole settings)", async () => {
    const settings = {
      cache_prompt: true,
      id_slot: -1,
      n_probs: 0,
      mirostat: 0,
      typical_p: 1,
      dry_multiplier: 0,
      dry_base: 1.75,
      xtc_probability: 0,
      samplers: undefined,
      return_tokens: false,
    };
    const r = await post("/v1/chat/completions", { model: "m", messages, max_tokens: 1, ...settings });
    assert.equal(r.status, 200, JSON.stringify(r.json));
  });
});

test("a stream with keep-alive comments (sse_ping_interval) still reads as events", async () => {
  const s = await rawStream(`${endpoint.url}/v1/chat/completions`, {
    model: "m",
    messages,
    max_tokens: 4,
    stream: true,
    sse_ping_interval: 0.001,
  });
  assert.equal(s.status, 200);
  assert.equal(s.events.at(-1)!.data, "[DONE]");
});
