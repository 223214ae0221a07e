// The assistant message parsed in the generation loop (GenerateOptions.parseMessage): the engine feeds the
// output to the prompt's parser itself, so a stream's deltas come with its tokens and the final parse with the
// result, and no text goes to JavaScript and back to be parsed. The grammar here forces the model's output
// to a known text; what the pacing lets through while it grows is parse-pacing-tests' (C++).
import assert from "node:assert/strict";
import { test } from "node:test";
import { ChatTemplate, parseChatOutput } from "../../../native/engine/chat";
import type { OutputDelta } from "../../../native/engine/types";
import { literalGrammar } from "../../../native/endpoint/chat/agentDemo";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";
import { loadEngine, randomPair } from "../../helpers/native";

const tools = [
  { type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } },
];
const OUTPUT =
  '<think>\nLet me see.\n</think>\n\nChecking.<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';

async function setup() {
  const engine = await loadEngine({ target: randomPair(1, { toolCalls: true }).target });
  const template = await ChatTemplate.fromSource(QWEN3_CHAT_TEMPLATE, { eos: "<|im_end|>" });
  const chat = await template.apply({ messages: [{ role: "user", content: "Weather in Paris?" }], tools });
  return { engine, chat, tokens: (await engine.tokenize(chat.prompt)).slice(-32) };
}

/** The message the deltas make, joined per kind (a call's arguments by its index). */
function joined(deltas: OutputDelta[]) {
  const out = { reasoning: "", content: "", calls: [] as { name: string; arguments: string }[] };
  for (const d of deltas) {
    if (d.kind !== "tool_call") out[d.kind] += d.text;
    else if (d.start) out.calls[d.index] = { name: d.name, arguments: d.text };
    else out.calls[d.index].arguments += d.text;
  }
  return out;
}

test("a stream's deltas come with its tokens, and with the final parse's they make the message the whole output parses to", async () => {
  const { engine, chat, tokens } = await setup();
  const streamed: OutputDelta[] = [];
  let events = 0;
  const r = await engine.generate(tokens, {
    maxTokens: 200,
    temperature: 0,
    chat,
    grammar: literalGrammar(OUTPUT),
    parseMessage: true,
    onToken: (e) => {
      events++;
      if (e.deltas) streamed.push(...e.deltas);
    },
  });
  assert.equal(r.text, OUTPUT);
  assert.equal(r.stopReason, "eos");
  assert.ok(streamed.length > 0, "partial parses ran while it was generated");
  assert.equal(events, r.tokens.length, "each token's event, with the deltas of a parse after it when one ran");
  const whole = await parseChatOutput(r.text, chat);
  const message = joined([...streamed, ...r.messageDeltas!]);
  assert.deepEqual(message, {
    reasoning: whole.reasoningContent,
    content: whole.content,
    calls: whole.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })),
  });
  assert.equal(message.calls[0].name, "get_weather");
  assert.deepEqual(JSON.parse(message.calls[0].arguments), { city: "Paris" });
});

test("without a token callback the final parse gives the whole message; output cut off inside a call is read as far as it goes", async () => {
  const { engine, chat, tokens } = await setup();
  const whole = await engine.generate(tokens, {
    maxTokens: 200,
    temperature: 0,
    chat,
    grammar: literalGrammar(OUTPUT),
    parseMessage: true,
  });
  assert.equal(joined(whole.messageDeltas!).calls[0].name, "get_weather");
  const cut = await engine.generate(tokens, { maxTokens: 40, temperature: 0, chat, grammar: literalGrammar(OUTPUT), parseMessage: true });
  assert.equal(cut.stopReason, "length");
  assert.ok(cut.text.includes("<tool_call>") && !cut.text.includes("</tool_call>"), JSON.stringify(cut.text));
  const calls = joined(cut.messageDeltas!).calls;
  assert.equal(calls[0]?.name, "get_weather", JSON.stringify(cut.text));
  assert.ok(cut.text.includes(calls[0].arguments), "the arguments as far as they go");
});

test("an aborted generation has no final parse; parseMessage without a chat prompt is refused", async () => {
  const { engine, chat, tokens } = await setup();
  const controller = new AbortController();
  const r = await engine.generate(tokens, {
    maxTokens: 200,
    temperature: 0,
    chat,
    grammar: literalGrammar(OUTPUT),
    parseMessage: true,
    signal: controller.signal,
    onToken: () => controller.abort(),
  });
  assert.equal(r.stopReason, "abort");
  assert.deepEqual(r.messageDeltas, []);
  await assert.rejects(engine.generate(tokens, { maxTokens: 1, parseMessage: true }), /'parseMessage' needs 'chat'/);
});
