// VS Code-shaped chat messages and tools → the OpenAI chat request sent to the endpoint.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { countableText, toChatRequest, toOpenAIMessages } from "../../../client/src/lm/messages";
import { assistant, DataPart, system, TextPart, ToolCallPart, ToolResultPart, user } from "./vscodeParts";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("message mapping", () => {
  test("roles, text parts joined, tool calls on the assistant, tool results as tool messages ahead of the user's text", () => {
    const messages = toOpenAIMessages([
      system(new TextPart("Be brief.")),
      user(new TextPart("Weather in "), new TextPart("Tokyo?")),
      assistant(new TextPart("Checking."), new ToolCallPart("call_1", "get_weather", { city: "Tokyo" })),
      user(new ToolResultPart("call_1", [new TextPart("sunny, "), new TextPart("21 C")]), new TextPart("And tomorrow?")),
    ]);
    assert.deepEqual(messages, [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather in Tokyo?" },
      {
        role: "assistant",
        content: "Checking.",
        tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Tokyo"}' } }],
      },
      { role: "tool", tool_call_id: "call_1", content: "sunny, 21 C" },
      { role: "user", content: "And tomorrow?" },
    ]);
  });

  test("a user message of tool results only has no empty user message after them; an assistant with only calls has empty content", () => {
    const messages = toOpenAIMessages([
      assistant(new ToolCallPart("a", "f", {}), new ToolCallPart("b", "g", { x: 1 })),
      user(new ToolResultPart("a", [new TextPart("1")]), new ToolResultPart("b", [new TextPart("2")])),
    ]);
    assert.deepEqual(messages, [
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "a", type: "function", function: { name: "f", arguments: "{}" } },
          { id: "b", type: "function", function: { name: "g", arguments: '{"x":1}' } },
        ],
      },
      { role: "tool", tool_call_id: "a", content: "1" },
      { role: "tool", tool_call_id: "b", content: "2" },
    ]);
  });

  test("text and JSON data parts are text; other data (cache markers) is left out; an image is refused", () => {
    assert.deepEqual(
      toOpenAIMessages([
        user(
          new DataPart(bytes('{"a":1}'), "application/json"),
          new DataPart(bytes(" ok"), "text/plain"),
          new DataPart(bytes("x"), "cache_control"),
        ),
      ]),
      [{ role: "user", content: '{"a":1} ok' }],
    );
    assert.throws(() => toOpenAIMessages([user(new DataPart(bytes("png"), "image/png"))]), /reads text only/);
    assert.throws(() => toOpenAIMessages([{ role: 9, content: [] }]), /unknown chat message role 9/);
  });

  test("tools become functions; Required tool mode is tool_choice required; known model options pass, others do not", () => {
    const r = toChatRequest("m", [user(new TextPart("hi"))], {
      tools: [
        { name: "get_weather", description: "Weather", inputSchema: { type: "object", properties: { city: { type: "string" } } } },
        { name: "now", description: "Time" },
      ],
      toolMode: 2,
      modelOptions: { temperature: 0.2, max_tokens: 64, copilotSpecific: true },
    });
    assert.deepEqual(r, {
      temperature: 0.2,
      max_tokens: 64,
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Weather",
            parameters: { type: "object", properties: { city: { type: "string" } } },
          },
        },
        { type: "function", function: { name: "now", description: "Time", parameters: { type: "object", properties: {} } } },
      ],
      tool_choice: "required",
      stream: true,
    });
    assert.equal(toChatRequest("m", [], { tools: [{ name: "f", description: "" }], toolMode: 1 }).tool_choice, undefined);
    assert.equal(toChatRequest("m", [], { toolMode: 2 }).tools, undefined, "no tools, no tool_choice");
  });

  test("the text a token count is asked for", () => {
    assert.equal(countableText("plain"), "plain");
    assert.equal(countableText(assistant(new TextPart("a"), new ToolCallPart("c", "f", { x: 1 }))), 'a\nf({"x":1})');
    assert.equal(countableText(user(new ToolResultPart("c", [new TextPart("r")]))), "r");
  });
});
