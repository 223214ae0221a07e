// tool_choice required/named: the grammar llama.cpp builds, without the free text it allows before a call.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ChatTemplate } from "../../../native/engine/chat";
import { requireToolCall } from "../../../native/endpoint/toolChoice";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";

const tools = [{ type: "function", function: { name: "f", parameters: { type: "object", properties: { a: { type: "string" } } } } }];
const apply = async (tool_choice: "auto" | "required", parallel = true) =>
  (await ChatTemplate.fromSource(QWEN3_CHAT_TEMPLATE, { eos: "<|im_end|>" })).apply({ messages: [{ role: "user", content: "hi" }], tools, tool_choice, parallel_tool_calls: parallel });
const root = (grammar: string) => grammar.split("\n").find((l) => l.startsWith("root ::= "))!;

test("required: llama.cpp's root allows text before the calls; requireToolCall removes just that", async () => {
  for (const parallel of [true, false]) {
    const p = await apply("required", parallel);
    assert.match(root(p.grammar), / until-\d+\? tool-calls?$/);
    const strict = requireToolCall(p);
    assert.equal(root(strict.grammar), root(p.grammar).replace(/ until-\d+\? /, " "));
    // everything else is llama.cpp's: the other rules, the generation prompt, the parser
    assert.deepEqual(strict.grammar.split("\n").filter((l) => !l.startsWith("root")), p.grammar.split("\n").filter((l) => !l.startsWith("root")));
    assert.deepEqual({ ...strict, grammar: "" }, { ...p, grammar: "" });
  }
});

test("lazy (auto) grammars and grammars of other shapes are left alone", async () => {
  const auto = await apply("auto");
  assert.equal(requireToolCall(auto), auto);
  const other = { ...(await apply("required")), grammar: 'root ::= "x"' };
  assert.equal(requireToolCall(other), other);
});
