// Reasoning, on both APIs: served with a template whose generation prompt opens a think block (as the
// Qwen3 "thinking" templates do), so the random model's output is reasoning until it closes it.
import Anthropic from "@anthropic-ai/sdk";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import OpenAI from "openai";
import { ChatTemplate } from "../../../native/engine/chat";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";
import { postJson, rawStream, startEndpoint, storageDir, type EndpointProcess } from "../../helpers/endpoint";
import "../../helpers/templateGuard";

const OPEN = "{{- '<|im_start|>assistant\\n' }}\n    {%- if enable_thinking is defined and enable_thinking is false %}";
const THINKING_TEMPLATE = QWEN3_CHAT_TEMPLATE.replace(OPEN, "{{- '<|im_start|>assistant\\n<think>\\n' }}\n    {%- if false %}");

let endpoint: EndpointProcess;
let openai: OpenAI;
let anthropic: Anthropic;

before(async () => {
  assert.notEqual(THINKING_TEMPLATE, QWEN3_CHAT_TEMPLATE);
  const file = join(storageDir, "thinking.jinja");
  writeFileSync(file, THINKING_TEMPLATE);
  endpoint = await startEndpoint(["--chat-template-file", file]);
  openai = new OpenAI({ baseURL: `${endpoint.url}/v1`, apiKey: "unused", maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: endpoint.url, apiKey: "unused", maxRetries: 0 });
});
after(() => endpoint.stop());

const request = { model: "m", max_tokens: 12, temperature: 0, messages: [{ role: "user" as const, content: "Think first" }] };

test("OpenAI: the output goes to reasoning_content, streamed as reasoning_content deltas", async () => {
  const whole = (await openai.chat.completions.create(request)).choices[0].message as OpenAI.ChatCompletionMessage & {
    reasoning_content?: string;
  };
  assert.ok(whole.reasoning_content && whole.reasoning_content.length > 0);
  let reasoning = "";
  for await (const chunk of await openai.chat.completions.create({ ...request, stream: true })) {
    reasoning += (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? "";
  }
  assert.equal(reasoning, whole.reasoning_content);
});

test("Anthropic: a thinking block, streamed with thinking_delta", async () => {
  const whole = await anthropic.messages.create({ ...request, thinking: { type: "enabled", budget_tokens: 1024 } });
  assert.equal(whole.content[0].type, "thinking");
  const raw = await rawStream(`${endpoint.url}/v1/messages`, {
    ...request,
    thinking: { type: "enabled", budget_tokens: 1024 },
    stream: true,
  });
  const start = raw.events.find((e) => e.event === "content_block_start")!.data;
  assert.equal(start.content_block.type, "thinking");
  const thinking = raw.events.filter((e) => e.data.delta?.type === "thinking_delta").map((e) => e.data.delta.thinking);
  assert.equal(thinking.join(""), (whole.content[0] as Anthropic.ThinkingBlock).thinking);
});

test("Anthropic: thinking blocks of earlier turns reach the template as reasoning_content", async () => {
  const tools = [{ name: "get_time", input_schema: { type: "object" as const, properties: {} } }];
  const messages: Anthropic.MessageParam[] = [
    { role: "user", content: "What time is it?" },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "I should ask the clock.", signature: "" },
        { type: "tool_use", id: "toolu_1", name: "get_time", input: {} },
      ],
    },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "12:00" }] },
  ];
  const tpl = await ChatTemplate.fromSource(THINKING_TEMPLATE, { eos: "<|im_end|>" });
  const { prompt } = await tpl.apply({
    messages: [
      messages[0],
      {
        role: "assistant",
        content: "",
        reasoning_content: "I should ask the clock.",
        tool_calls: [{ id: "toolu_1", type: "function", function: { name: "get_time", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "toolu_1", content: "12:00" },
    ],
    tools: [{ type: "function", function: { name: "get_time", description: "", parameters: tools[0].input_schema } }],
    enable_thinking: false,
  });
  assert.match(prompt, /<think>\nI should ask the clock.\n<\/think>/);
  const raw = await postJson(`${endpoint.url}/v1/completions`, { model: "m", prompt, max_tokens: 1 });
  const counted = await anthropic.messages.countTokens({ model: "m", messages, tools });
  assert.equal(counted.input_tokens, raw.json.usage.prompt_tokens);
});
