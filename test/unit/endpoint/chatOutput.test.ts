// From model output to an assistant message and stream deltas: llama.cpp's parser for the prompt's format,
// compared across partial parses (in the native side, with the text) so that nothing sent is taken back.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ChatTemplate } from "../../../native/engine/chat";
import type { OutputDelta } from "../../../native/engine/types";
import { IncrementalParser, SentMessage, type MessageDelta } from "../../../native/endpoint/chatOutput";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";
import "../../helpers/templateGuard";

// What each parse adds (never taking text back, calls announced once named): message-tracker-tests (C++).

test("SentMessage gives a call the model left without an id one of its own, and keeps the model's", () => {
  const m = new SentMessage("call_");
  const [start] = m.add([{ kind: "tool_call", index: 0, text: '{"a"', start: true, id: "", name: "f" }]) as Extract<
    MessageDelta,
    { kind: "tool_call" }
  >[];
  assert.match(start.id, /^call_[0-9a-f]{24}$/);
  assert.deepEqual({ ...start, id: "" }, { kind: "tool_call", index: 0, id: "", name: "f", arguments: '{"a"', start: true });
  const more = m.add([
    { kind: "content", text: "Hi" },
    { kind: "tool_call", index: 0, text: ": 1}", start: false },
    { kind: "tool_call", index: 1, text: "{}", start: true, id: "own-id", name: "g" },
  ]);
  assert.deepEqual(more, [
    { kind: "content", text: "Hi" },
    { kind: "tool_call", index: 0, id: start.id, name: "f", arguments: ": 1}", start: false },
    { kind: "tool_call", index: 1, id: "own-id", name: "g", arguments: "{}", start: true },
  ]);
  assert.deepEqual(m.sent, {
    reasoning: "",
    content: "Hi",
    toolCalls: [
      { id: start.id, name: "f", arguments: '{"a": 1}' },
      { id: "own-id", name: "g", arguments: "{}" },
    ],
  });
});

test("IncrementalParser: the deltas of text fed in pieces add up to the final message", async () => {
  const tpl = await ChatTemplate.fromSource(QWEN3_CHAT_TEMPLATE, { eos: "<|im_end|>" });
  const tools = [
    { type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } },
  ];
  const prompt = await tpl.apply({ messages: [{ role: "user", content: "hi" }], tools });
  const output =
    '<think>\nLet me see.\n</think>\n\nChecking.<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
  const deltas: MessageDelta[] = [];
  const p = await IncrementalParser.open(prompt, "call_", (d) => deltas.push(...d));
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
  const join = (kind: string) =>
    deltas
      .filter((d) => d.kind === kind)
      .map((d) => ("text" in d ? d.text : d.arguments))
      .join("");
  assert.equal(join("reasoning"), final.reasoning);
  assert.equal(join("content"), final.content);
  assert.equal(join("tool_call"), final.toolCalls[0].arguments);
});

test("IncrementalParser: output cut off inside a call is read as far as it goes", async () => {
  const tpl = await ChatTemplate.fromSource(QWEN3_CHAT_TEMPLATE, { eos: "<|im_end|>" });
  const tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];
  const prompt = await tpl.apply({ messages: [{ role: "user", content: "hi" }], tools });
  const p = await IncrementalParser.open(prompt, "call_", () => {});
  const final = await p.finish('<tool_call>\n{"name": "f", "arguments": {"x": "abc', false);
  assert.equal(final.toolCalls[0].name, "f");
  assert.match(final.toolCalls[0].arguments, /^\{"x": "abc/);
});

test("IncrementalParser: a parse waits until the parses so far took at most 2 % of the time; text that comes meanwhile goes in one parse, and finish waits for none", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  let now = 0;
  t.mock.method(performance, "now", () => now);
  const appended: string[] = [];
  const stream = {
    // every parse takes 10 ms
    append: async (text: string): Promise<OutputDelta[]> => {
      appended.push(text);
      now += 10;
      return [{ kind: "content", text }];
    },
    finish: async (text: string): Promise<OutputDelta[]> => [{ kind: "content", text: text.slice(appended.join("").length) }],
  };
  const deltas: MessageDelta[] = [];
  const p = new IncrementalParser(stream, "call_", (d) => deltas.push(...d));
  const settle = () => new Promise((r) => setImmediate(r));
  p.push("a");
  await settle();
  p.push("b");
  p.push("c");
  await settle();
  assert.deepEqual(appended, ["a"], "the next parse waits 49 × 10 ms");
  t.mock.timers.tick(489);
  await settle();
  assert.deepEqual(appended, ["a"]);
  t.mock.timers.tick(1);
  await settle();
  assert.deepEqual(appended, ["a", "bc"]);
  p.push("d");
  const final = await p.finish("abcd", true);
  assert.deepEqual(appended, ["a", "bc"], "the final parse reads the rest");
  assert.equal(final.content, "abcd");
  assert.deepEqual(
    deltas.map((d) => (d.kind === "content" ? d.text : "")),
    ["a", "bc", "d"],
  );
});

test("IncrementalParser: until a delta goes out, parses do not wait (the client's first token is not held back)", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  let now = 0;
  t.mock.method(performance, "now", () => now);
  const appended: string[] = [];
  const stream = {
    // every parse takes 10 ms; the first two hold their text back (a tag that may be starting)
    append: async (text: string): Promise<OutputDelta[]> => {
      appended.push(text);
      now += 10;
      return appended.length < 3 ? [] : [{ kind: "content", text: appended.join("") }];
    },
    finish: async (): Promise<OutputDelta[]> => [],
  };
  const deltas: MessageDelta[] = [];
  const p = new IncrementalParser(stream, "call_", (d) => deltas.push(...d));
  const settle = () => new Promise((r) => setImmediate(r));
  for (const piece of ["<", "t", "x"]) {
    p.push(piece);
    await settle();
  }
  assert.deepEqual(appended, ["<", "t", "x"]);
  assert.equal(deltas.length, 1);
  p.push("y");
  await settle();
  assert.deepEqual(appended, ["<", "t", "x"], "after the first delta the next parse waits");
  await p.finish("<txy", true);
});
