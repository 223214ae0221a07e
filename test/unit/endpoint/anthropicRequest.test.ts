// Anthropic requests → the OpenAI-shaped request llama.cpp's chat layer renders.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseMessagesRequest } from "../../../native/endpoint/anthropic/request";
import { ApiError } from "../../../native/endpoint/http/errors";

const base = { model: "m", max_tokens: 5 };

test("content blocks: tool_use → tool_calls, tool_result → tool messages, thinking → reasoning_content", () => {
  const { request } = parseMessagesRequest(
    {
      ...base,
      system: [{ type: "text", text: "Be brief." }],
      messages: [
        { role: "user", content: [{ type: "text", text: "Weather?" }] },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "Use the tool.", signature: "sig" },
            { type: "redacted_thinking", data: "opaque" },
            { type: "text", text: "Checking." },
            { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
            { type: "tool_use", id: "toolu_2", name: "get_weather", input: { city: "Rome" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: "sunny" },
            { type: "tool_result", tool_use_id: "toolu_2", content: [{ type: "text", text: "rain" }], is_error: false },
            { type: "text", text: "Thanks" },
          ],
        },
      ],
    },
    "generate",
  );
  assert.deepEqual(request.messages, [
    { role: "system", content: [{ type: "text", text: "Be brief." }] },
    { role: "user", content: [{ type: "text", text: "Weather?" }] },
    {
      role: "assistant",
      content: [{ type: "text", text: "Checking." }],
      reasoning_content: "Use the tool.",
      tool_calls: [
        { id: "toolu_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
        { id: "toolu_2", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
      ],
    },
    { role: "tool", tool_call_id: "toolu_1", content: "sunny" },
    { role: "tool", tool_call_id: "toolu_2", content: [{ type: "text", text: "rain" }] },
    { role: "user", content: [{ type: "text", text: "Thanks" }] },
  ]);
});

test("tools and tool_choice: any and tool require a call; disable_parallel_tool_use", () => {
  const tools = [{ name: "f", description: "does f", input_schema: { type: "object" } }];
  const parse = (tool_choice?: object) =>
    parseMessagesRequest({ ...base, messages: [{ role: "user", content: "x" }], tools, tool_choice }, "generate");
  assert.deepEqual(parse().request.tools, [
    { type: "function", function: { name: "f", description: "does f", parameters: { type: "object" } } },
  ]);
  assert.equal(parse().request.tool_choice, undefined);
  assert.equal(parse({ type: "auto" }).request.tool_choice, "auto");
  assert.equal(parse({ type: "none" }).request.tool_choice, "none");
  assert.equal(parse({ type: "any" }).request.tool_choice, "required");
  const named = parse({ type: "tool", name: "f", disable_parallel_tool_use: true });
  assert.deepEqual([named.request.tool_choice, named.request.parallel_tool_calls], [{ type: "function", function: { name: "f" } }, false]);
  assert.equal(parse({ type: "any" }).request.parallel_tool_calls, undefined);
});

test("thinking only when enabled; sampling, stop_sequences and stream", () => {
  const parse = (extra: object) => parseMessagesRequest({ ...base, messages: [{ role: "user", content: "x" }], ...extra }, "generate");
  assert.equal(parse({}).request.enable_thinking, false);
  assert.equal(parse({ thinking: { type: "disabled" } }).request.enable_thinking, false);
  assert.equal(parse({ thinking: { type: "enabled", budget_tokens: 2048 } }).request.enable_thinking, true);
  // the template's own default decides
  assert.equal(parse({ thinking: { type: "adaptive" } }).request.enable_thinking, undefined);
  const p = parse({ temperature: 0.5, top_p: 0.9, top_k: 20, stop_sequences: ["END"], stream: true });
  assert.deepEqual([p.sampling, p.stop, p.stream, p.maxTokens], [{ temperature: 0.5, topP: 0.9, topK: 20 }, ["END"], true, 5]);
});

test("a system message inside messages stays a system message, string or text blocks", () => {
  const { request } = parseMessagesRequest(
    {
      ...base,
      messages: [
        { role: "user", content: "x" },
        { role: "system", content: [{ type: "text", text: "note" }] },
        { role: "system", content: "more" },
      ],
    },
    "generate",
  );
  assert.deepEqual(request.messages.slice(1), [
    { role: "system", content: [{ type: "text", text: "note" }] },
    { role: "system", content: "more" },
  ]);
});

test("count_tokens does not need max_tokens", () => {
  assert.equal(parseMessagesRequest({ model: "m", messages: [{ role: "user", content: "x" }] }, "count").maxTokens, 0);
});

test("an image in a tool result becomes a note, and its place is listed", () => {
  const p = parseMessagesRequest(
    {
      ...base,
      messages: [
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t", content: [{ type: "image", source: { type: "url", url: "https://x/y.png" } }] },
          ],
        },
      ],
    },
    "generate",
  );
  assert.deepEqual(p.request.messages, [
    { role: "tool", tool_call_id: "t", content: [{ type: "text", text: "[an image was left out: the served model reads text only]" }] },
  ]);
  assert.deepEqual(p.leftOut, ["messages[0].content[0].content[0]"]);
});

test("refusals name the block", () => {
  const refuses = (messages: unknown[], message: string) =>
    assert.throws(
      () => parseMessagesRequest({ ...base, messages }, "generate"),
      (e: unknown) => e instanceof ApiError && e.status === 400 && e.message === message,
    );
  refuses(
    [{ role: "user", content: [{ type: "document", source: {} }] }],
    "messages[0].content[0].type: 'document' blocks are not supported: the served model reads text only",
  );
  refuses(
    [{ role: "system", content: [{ type: "image", source: {} }] }],
    "messages[0].content[0].type: 'image' blocks are not supported: the served model reads text only",
  );
  refuses(
    [{ role: "assistant", content: [{ type: "tool_result", tool_use_id: "t" }] }],
    "messages[0].content[0].type: 'tool_result' blocks belong in user messages",
  );
  refuses(
    [{ role: "assistant", content: [{ type: "tool_use", id: "t", name: "f", input: "x" }] }],
    'messages[0].content[0].input: must be an object, got string "x"',
  );
  refuses([], "messages: must contain at least one message");
});

test("Claude Code's billing-header system block is dropped (array or string system, or a system message), unless kept", () => {
  const billing = "x-anthropic-billing-header: cc_version=2.1.332.abc; cc_entrypoint=cli; cch=1f2e3;";
  const body = {
    ...base,
    system: [
      { type: "text", text: billing },
      { type: "text", text: "You are Claude Code." },
    ],
    messages: [
      { role: "system", content: [{ type: "text", text: billing }] },
      { role: "user", content: "hi" },
    ],
  };
  const p = parseMessagesRequest(body, "generate");
  assert.equal(p.billingHeadersDropped, 2);
  assert.deepEqual(p.request.messages, [
    { role: "system", content: [{ type: "text", text: "You are Claude Code." }] },
    { role: "user", content: "hi" },
  ]);
  const alone = parseMessagesRequest({ ...base, system: billing, messages: [{ role: "user", content: "hi" }] }, "count");
  assert.deepEqual(alone.request.messages, [{ role: "user", content: "hi" }]);
  assert.equal(alone.billingHeadersDropped, 1);
  const kept = parseMessagesRequest(body, "generate", { keepBillingHeader: true });
  assert.equal(kept.billingHeadersDropped, 0);
  assert.equal(kept.request.messages.length, 3);
  // only a block that starts with it
  const quoted = parseMessagesRequest({ ...base, system: `Ignore any ${billing}`, messages: [{ role: "user", content: "hi" }] }, "count");
  assert.equal(quoted.billingHeadersDropped, 0);
});
