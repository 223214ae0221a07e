// From model output to an assistant message and stream deltas: llama.cpp's parser for the prompt's format,
// compared across partial parses so that nothing sent is taken back.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ChatTemplate } from "../../../native/engine/chat";
import type { ParsedMessage } from "../../../native/engine/types";
import { IncrementalParser, MessageTracker, type MessageDelta } from "../../../native/endpoint/chatOutput";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";

const parsed = (content: string, reasoningContent = "", toolCalls: ParsedMessage["toolCalls"] = []): ParsedMessage => ({ content, reasoningContent, toolCalls });

test("MessageTracker sends what each parse adds, in order", () => {
  const t = new MessageTracker("call_");
  assert.deepEqual(t.update(parsed("", "hm")), [{ kind: "reasoning", text: "hm" }]);
  assert.deepEqual(t.update(parsed("Hi", "hmm")), [
    { kind: "reasoning", text: "m" },
    { kind: "content", text: "Hi" },
  ]);
  assert.deepEqual(t.update(parsed("Hi", "hmm")), []);
});

test("MessageTracker never takes back text: a parse that is not an extension sends nothing", () => {
  const t = new MessageTracker("call_");
  t.update(parsed("Hello <to"));
  assert.deepEqual(t.update(parsed("Hello ")), []);
  assert.deepEqual(t.update(parsed("Hello <tool")), [{ kind: "content", text: "ol" }]);
  assert.equal(t.sent.content, "Hello <tool");
});

test("MessageTracker announces a call once its name is known, with an id, then sends its arguments as they grow", () => {
  const t = new MessageTracker("call_");
  assert.deepEqual(t.update(parsed("", "", [{ name: "", arguments: "", id: "" }])), []);
  const [start] = t.update(parsed("", "", [{ name: "f", arguments: '{"a"', id: "" }])) as Extract<MessageDelta, { kind: "tool_call" }>[];
  assert.equal(start.start, true);
  assert.match(start.id, /^call_[0-9a-f]{24}$/);
  assert.deepEqual({ ...start, id: "" }, { kind: "tool_call", index: 0, id: "", name: "f", arguments: '{"a"', start: true });
  const more = t.update(parsed("", "", [{ name: "f", arguments: '{"a": 1}', id: "" }, { name: "g", arguments: "{}", id: "own-id" }]));
  assert.deepEqual(more, [
    { kind: "tool_call", index: 0, id: start.id, name: "f", arguments: ": 1}", start: false },
    { kind: "tool_call", index: 1, id: "own-id", name: "g", arguments: "{}", start: true },
  ]);
});

test("IncrementalParser: the deltas of text fed in pieces add up to the final message", async () => {
  const tpl = await ChatTemplate.fromSource(QWEN3_CHAT_TEMPLATE, { eos: "<|im_end|>" });
  const tools = [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } }];
  const prompt = await tpl.apply({ messages: [{ role: "user", content: "hi" }], tools });
  const output = '<think>\nLet me see.\n</think>\n\nChecking.<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
  const deltas: MessageDelta[] = [];
  const p = new IncrementalParser(prompt, "call_", (d) => deltas.push(...d));
  for (let i = 0; i < output.length; i += 4) {
    p.push(output.slice(i, i + 4));
    // let some parses run between pieces, as generation does
    if (i % 12 === 0) await new Promise((r) => setImmediate(r));
  }
  const final = await p.finish(output, true);
  assert.equal(final.reasoning.trim(), "Let me see.");
  assert.equal(final.content, "Checking.");
  assert.equal(final.toolCalls.length, 1);
  assert.equal(final.toolCalls[0].name, "get_weather");
  assert.deepEqual(JSON.parse(final.toolCalls[0].arguments), { city: "Paris" });
  const join = (kind: string) => deltas.filter((d) => d.kind === kind).map((d) => ("text" in d ? d.text : d.arguments)).join("");
  assert.equal(join("reasoning"), final.reasoning);
  assert.equal(join("content"), final.content);
  assert.equal(join("tool_call"), final.toolCalls[0].arguments);
});

test("IncrementalParser: output cut off inside a call is read as far as it goes", async () => {
  const tpl = await ChatTemplate.fromSource(QWEN3_CHAT_TEMPLATE, { eos: "<|im_end|>" });
  const tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];
  const prompt = await tpl.apply({ messages: [{ role: "user", content: "hi" }], tools });
  const p = new IncrementalParser(prompt, "call_", () => {});
  const final = await p.finish('<tool_call>\n{"name": "f", "arguments": {"x": "abc', false);
  assert.equal(final.toolCalls[0].name, "f");
  assert.match(final.toolCalls[0].arguments, /^\{"x": "abc/);
});
