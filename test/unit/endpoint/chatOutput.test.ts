// From the engine's parse deltas to the assistant message and the deltas a stream sends. The parses themselves
// run in the generation loop (test/unit/native/messageParse.test.ts); what each adds (never taking text back,
// calls announced once named) is message-tracker-tests' (C++), when they run parse-pacing-tests'.
import assert from "node:assert/strict";
import { test } from "node:test";
import { SentMessage, type MessageDelta } from "../../../native/endpoint/chat/chatOutput";

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
