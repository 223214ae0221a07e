import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseTree } from "jsonc-parser";
import { parseLive } from "../../../server/src/templateTests/liveSpec";
import { TemplateDocument } from "../../../server/src/document";
import { markersOf } from "../../../server/src/templateTests/markers";
import { endpointNotes } from "../../../server/src/templateTests/endpointClient";
import { COMMON_MARKERS, judgeTurn, type AssistantMessage } from "../../../server/src/templateTests/turnVerdict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const spec = parseLive(
  parseTree(
    JSON.stringify({
      messages: [{ role: "user", content: "weather?" }],
      tools: [
        {
          type: "function",
          function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
        },
      ],
      expectToolCall: "get_weather",
    }),
  )!,
  (_o, d) => new Error(d),
);
const call = (name: string, args: string): AssistantMessage => ({
  content: null,
  tool_calls: [{ id: "c", type: "function", function: { name, arguments: args } }],
});
const kind = (m: AssistantMessage) => {
  const v = judgeTurn(m, spec, COMMON_MARKERS);
  return v.ok ? "ok" : v.kind;
};

describe("judging one reply of a live case", () => {
  it("names each kind of failure", () => {
    assert.equal(kind(call("get_weather", '{"city": "Paris"}')), "ok");
    assert.equal(kind(call("get_time", "{}")), "unknown_tool");
    assert.equal(kind(call("get_weather", '{"city": ')), "unparsable_call");
    assert.equal(kind(call("get_weather", '{"city": 42}')), "invalid_arguments");
    assert.equal(kind(call("get_weather", "{}")), "invalid_arguments");
    assert.equal(kind({ content: 'Sure. <tool_call>{"name": "get_weather"}</tool_call>' }), "markup_in_content");
    assert.equal(kind({ ...call("get_weather", '{"city": "Paris"}'), content: "<think>hmm</think>" }), "reasoning_in_content");
    assert.equal(kind({ content: "It is sunny in Paris." }), "no_call");
  });

  it("says why the arguments fail the schema", () => {
    const v = judgeTurn(call("get_weather", '{"city": 42}'), spec, COMMON_MARKERS);
    assert.equal(v.ok, false);
    assert.match((v as { detail: string }).detail, /^get_weather\("\{\\"city\\":42\}"\): \/city must be string$/);
  });

  it("adds a template's own call and reasoning markers to the common ones", () => {
    const seed = new TemplateDocument(readFileSync(resolve(__dirname, "../../fixtures/corpus/templates/ByteDance-Seed-OSS.jinja"), "utf8"));
    const m = markersOf(seed);
    assert.ok(m.toolCall.includes("<seed:tool_call>"));
    assert.ok(m.reasoning.includes("</seed:think>"));
    assert.ok(COMMON_MARKERS.toolCall.every((x) => m.toolCall.includes(x)));
    assert.equal(kind({ content: "<seed:tool_call>…" }), "no_call"); // the common markers alone miss it
    assert.equal((judgeTurn({ content: "<seed:tool_call>…" }, spec, m) as { kind: string }).kind, "markup_in_content");
    const lfm = markersOf(
      new TemplateDocument(readFileSync(resolve(__dirname, "../../fixtures/corpus/templates/LFM2.5-8B-A1B.jinja"), "utf8")),
    );
    assert.ok(!lfm.toolCall.some((x) => x.includes("FFF_FIRST_FUN_F")));
  });
});

describe("what a report says about its endpoint", () => {
  const e = { base: "http://127.0.0.1:8080", model: "m", server: "llamacpp", takesTemplate: false, demo: false };
  it("a server without a per-request template field answered with its own template; demo models prove nothing", () => {
    assert.deepEqual(endpointNotes(e), [
      "http://127.0.0.1:8080 (llamacpp) takes no per-request chat template, so live cases ran with the template it serves, not the test file's",
    ]);
    assert.deepEqual(endpointNotes({ ...e, server: "chat-template-studio", takesTemplate: true }), []);
    assert.match(
      endpointNotes({ ...e, server: "chat-template-studio", takesTemplate: true, demo: true })[0],
      /demo models \(random weights\)/,
    );
  });
});
