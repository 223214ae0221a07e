// The Anthropic Messages API of the endpoint, through the official @anthropic-ai/sdk client, on the demo models.
import Anthropic from "@anthropic-ai/sdk";
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ChatTemplate } from "../../../native/engine/chat";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";
import { postJson, rawStream, startEndpoint, type EndpointProcess } from "../../helpers/endpoint";
import "../../helpers/templateGuard";

let endpoint: EndpointProcess;
let client: Anthropic;

before(async () => {
  endpoint = await startEndpoint();
  client = new Anthropic({ baseURL: endpoint.url, apiKey: "unused", maxRetries: 0 });
});
after(() => endpoint.stop());

const weather: Anthropic.Tool = {
  name: "get_weather",
  description: "Current weather in a city",
  input_schema: { type: "object", properties: { city: { type: "string", maxLength: 12 } }, required: ["city"] },
};
const hello: Anthropic.MessageParam[] = [{ role: "user", content: "Hello" }];
/** The SDK's types no longer list temperature (newer Claude models reject it); the wire format still has it. */
const GREEDY: object = { temperature: 0 };

const SEQUENCE = /^message_start ping( content_block_start( content_block_delta)* content_block_stop)* message_delta message_stop$/;

describe("messages", () => {
  test("non-streamed: a message with text content, stop reason and usage", async () => {
    const m = await client.messages.create({ model: "claude-anything", max_tokens: 10, messages: hello, ...GREEDY });
    assert.equal(m.type, "message");
    assert.equal(m.role, "assistant");
    assert.equal(m.model, "demo-random");
    assert.match(m.id, /^msg_/);
    assert.ok(["end_turn", "max_tokens"].includes(m.stop_reason!));
    assert.deepEqual(
      m.content.map((b) => b.type),
      ["text"],
    );
    assert.ok(m.usage.output_tokens >= 1 && m.usage.output_tokens <= 10);
  });

  test("streamed: the exact event sequence, and the same message as non-streamed", async () => {
    const params = { model: "m", max_tokens: 16, messages: [{ role: "user" as const, content: "Write" }], temperature: 0 };
    const whole = await client.messages.create(params);
    // on the wire, with the ping the SDK does not pass on
    const raw = await rawStream(`${endpoint.url}/v1/messages`, { ...params, stream: true });
    assert.equal(raw.headers["content-type"], "text/event-stream; charset=utf-8");
    assert.match(raw.events.map((e) => e.event).join(" "), SEQUENCE);
    assert.ok(raw.events.every((e) => e.data.type === e.event));
    assert.ok(raw.events.some((e) => e.data.delta?.type === "text_delta"));
    const stop = raw.events.find((e) => e.event === "message_delta")!.data;
    assert.equal(stop.delta.stop_reason, whole.stop_reason);
    assert.equal(stop.usage.output_tokens, whole.usage.output_tokens);
    assert.ok(Number(raw.trailers["x-dflash-drafted"]) > 0);
    assert.ok(raw.trailers["x-dflash-acceptance"] !== undefined);
    const message = await client.messages.stream(params).finalMessage();
    assert.deepEqual(message.content, whole.content);
    assert.equal(message.stop_reason, whole.stop_reason);
    assert.equal(message.usage.output_tokens, whole.usage.output_tokens);
  });

  test("system prompts (string or text blocks) reach the prompt", async () => {
    const count = (system?: Anthropic.MessageCountTokensParams["system"]) =>
      client.messages.countTokens({ model: "m", messages: hello, system });
    const bare = (await count()).input_tokens;
    const text = (await count("You are terse.")).input_tokens;
    assert.ok(text > bare);
    assert.equal((await count([{ type: "text", text: "You are terse." }])).input_tokens, text);
  });

  test("stop_sequences: stop_reason stop_sequence and the sequence that matched", async () => {
    const params = { model: "m", max_tokens: 30, messages: [{ role: "user" as const, content: "Count" }], temperature: 0 };
    const full = (await client.messages.create(params)).content[0] as Anthropic.TextBlock;
    const cut = [...full.text].slice(4, 6).join("");
    const m = await client.messages.create({ ...params, stop_sequences: [cut] });
    assert.equal(m.stop_reason, "stop_sequence");
    assert.equal(m.stop_sequence, cut);
    assert.equal((m.content[0] as Anthropic.TextBlock).text, full.text.slice(0, full.text.indexOf(cut)));
  });

  test("count_tokens counts the prompt the same request generates from", async () => {
    const params = { model: "m", messages: [{ role: "user" as const, content: "How many tokens is this?" }], tools: [weather] };
    const { input_tokens } = await client.messages.countTokens(params);
    const m = await client.messages.create({ ...params, max_tokens: 1 });
    assert.equal(input_tokens, m.usage.input_tokens + (m.usage.cache_read_input_tokens ?? 0));
  });

  test("image blocks are refused with an invalid_request_error", async () => {
    const image: Anthropic.ImageBlockParam = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } };
    await assert.rejects(
      client.messages.create({ model: "m", max_tokens: 5, messages: [{ role: "user", content: [{ type: "text", text: "look" }, image] }] }),
      (e: unknown) =>
        e instanceof Anthropic.BadRequestError && /messages\[0\]\.content\[1\]\.type: 'image' blocks are not supported/.test(e.message),
    );
  });
});

describe("tool use", () => {
  test("tool_choice any: the random model calls the tool (non-streamed)", async () => {
    const m = await client.messages.create({
      model: "m",
      max_tokens: 200,
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [weather],
      tool_choice: { type: "any", disable_parallel_tool_use: true },
      ...GREEDY,
    });
    assert.equal(m.stop_reason, "tool_use");
    const use = m.content.find((b) => b.type === "tool_use") as Anthropic.ToolUseBlock;
    assert.equal(use.name, "get_weather");
    assert.match(use.id, /^toolu_/);
    assert.equal(typeof (use.input as { city: unknown }).city, "string");
  });

  test("tool_choice tool, streamed: input_json_delta events rebuild the same tool_use block", async () => {
    const lookup: Anthropic.Tool = {
      name: "lookup",
      input_schema: { type: "object", properties: { term: { type: "string", maxLength: 12 } }, required: ["term"] },
    };
    const params = {
      model: "m",
      max_tokens: 200,
      messages: [{ role: "user" as const, content: "Look it up" }],
      tools: [weather, lookup],
      tool_choice: { type: "tool" as const, name: "lookup", disable_parallel_tool_use: true },
      temperature: 0,
    };
    const whole = await client.messages.create(params);
    const stream = client.messages.stream(params);
    const deltas: string[] = [];
    for await (const e of stream) if (e.type === "content_block_delta") deltas.push(e.delta.type);
    const message = await stream.finalMessage();
    assert.ok(deltas.includes("input_json_delta"));
    const use = message.content.find((b) => b.type === "tool_use") as Anthropic.ToolUseBlock;
    const expected = whole.content.find((b) => b.type === "tool_use") as Anthropic.ToolUseBlock;
    assert.equal(use.name, "lookup");
    assert.deepEqual(use.input, expected.input);
    assert.equal(message.stop_reason, "tool_use");
  });

  test("tool_use and tool_result blocks reach the template as tool_calls and a tool message", async () => {
    const conversation: Anthropic.MessageParam[] = [
      { role: "user", content: "Weather in Paris?" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me check." },
          { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "sunny, 21 C" }] },
    ];
    // the OpenAI-shaped conversation llama.cpp's chat layer renders with tool calls and tool responses
    const tpl = await ChatTemplate.fromSource(QWEN3_CHAT_TEMPLATE, { eos: "<|im_end|>" });
    const { prompt } = await tpl.apply({
      messages: [
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: "Let me check.",
          tool_calls: [{ id: "toolu_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
        },
        { role: "tool", tool_call_id: "toolu_1", content: "sunny, 21 C" },
      ],
      tools: [{ type: "function", function: { name: weather.name, description: weather.description, parameters: weather.input_schema } }],
      // Anthropic's default: no extended thinking
      enable_thinking: false,
    });
    assert.match(prompt, /<tool_call>\n\{"name": "get_weather", "arguments": \{"city": "Paris"\}\}\n<\/tool_call>/);
    assert.match(prompt, /<tool_response>\nsunny, 21 C\n<\/tool_response>/);
    const raw = await postJson(`${endpoint.url}/v1/completions`, { model: "m", prompt, max_tokens: 1 });
    const counted = await client.messages.countTokens({ model: "m", messages: conversation, tools: [weather] });
    assert.equal(counted.input_tokens, raw.json.usage.prompt_tokens);
  });
});
