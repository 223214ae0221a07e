// tool_choice required (OpenAI), any (Anthropic) and a named tool: on every tool-capable corpus template the
// tiny random model, decoding greedily under the grammar llama.cpp builds, writes a call that llama.cpp's
// parser reads back. The tool's only argument is an enum, so the grammar leaves the model no way to go
// wrong but the free text the forced grammar must not allow.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";
import { ChatTemplate, parseChatOutput } from "../../../native/engine/chat";
import type { ChatRequest } from "../../../native/engine/types";
import { parseMessagesRequest } from "../../../native/endpoint/anthropic/request";
import { parseChatRequest } from "../../../native/endpoint/openai/chat";
import { corpusDir } from "../../helpers/corpus";
import { loadEngine, randomPair } from "../../helpers/native";

// llama.cpp's XML-style formats take a string argument as raw text up to the closing tag, enum or not; an
// integer enum is held to its schema in every format
const DAYS = [1, 3];
const parameters = { type: "object", properties: { days: { type: "integer", enum: DAYS } }, required: ["days"] };
const openaiTools = [{ type: "function", function: { name: "get_weather", description: "Weather forecast", parameters } }];
const messages = [{ role: "user", content: "Weather for the next 3 days?" }];
// thinking off: a template's reasoning is free text the forced modes keep, and a random model would fill it
const openai = (tool_choice: unknown) =>
  parseChatRequest({ model: "m", messages, tools: openaiTools, tool_choice, parallel_tool_calls: false, chat_template_kwargs: { enable_thinking: false } }).request;
const MODES: Record<string, () => ChatRequest> = {
  "openai required": () => openai("required"),
  "openai named": () => openai({ type: "function", function: { name: "get_weather" } }),
  "anthropic any": () =>
    parseMessagesRequest(
      { model: "m", max_tokens: 1, messages, tools: [{ name: "get_weather", description: "Weather forecast", input_schema: parameters }], tool_choice: { type: "any", disable_parallel_tool_use: true } },
      "generate",
    ).request,
};

const daysOf = (args: string) => {
  try {
    return JSON.parse(args).days;
  } catch {
    return undefined;
  }
};

// Where llama.cpp's own grammar leaves a forced call open-ended, so a random model never finishes it: the
// reasoning a template's generation prompt opens whatever enable_thinking says (kept: the model must be able to
// think before it calls), argument syntax llama.cpp does not hold to the schema, free text in a call's header.
const OPEN_ENDED: Record<string, string> = {
  "Apriel-1.6-15b-Thinker-fixed.jinja": "the generation prompt opens the reasoning",
  "Cohere2MoE.jinja": "the generation prompt opens the reasoning",
  "Kimi-K3.jinja": "the generation prompt opens the reasoning",
  "MiniMax-M2.jinja": "the generation prompt opens the reasoning",
  "NVIDIA-Nemotron-Nano-v2.jinja": "the generation prompt opens the reasoning",
  "LFM2.5-8B-A1B.jinja": "Python-style arguments are not held to the schema (days=False)",
  "google-gemma-4-31B-it.jinja": "gemma's argument syntax is not held to the schema",
  "google-gemma-4-31B-it-interleaved.jinja": "gemma's argument syntax is not held to the schema",
  "muse-glimmer.jinja": "the call's recipient (` to=…`) is free text",
  "openai-gpt-oss-120b.jinja": "the call's `<|constrain|>` type is any word ([A-Za-z0-9_-]+)",
};

test("forced tool calls: root of the Qwen3.5 grammar goes straight to the call; the arguments keep their schema", async () => {
  const template = await ChatTemplate.fromSource(readFileSync(corpusDir("templates", "Qwen3.5-4B.jinja"), "utf8"), { bos: "<s>", eos: "</s>" });
  const root = (g: string) => g.split("\n").find((l) => l.startsWith("root ::= "))!;
  const auto = await template.apply({ ...MODES["openai required"](), tool_choice: "auto" });
  const forced = await template.apply(MODES["openai required"]());
  // llama.cpp's required grammar: `… space until-N space tool-call-root`
  const required = await template.apply({ ...MODES["openai required"](), tool_choice: "required", chat_template_kwargs: { enable_thinking: true } });
  assert.match(root(required.grammar), / space tool-call-root$/);
  assert.doesNotMatch(root(required.grammar), /until-\d+\?? space tool-call-root$/);
  assert.equal(root(forced.grammar), 'root ::= "<|im_start|>assistant\\n" ("<think>" space until-6 ("</think>" | ))? space space tool-call-root');
  assert.ok(auto.grammarLazy);
  // XML-style formats take the integer argument by its schema
  assert.match(forced.grammar, /^tool-get-weather-arg-days-schema ::= \("1" \| "3"\)/m);
  // JSON formats keep the whole arguments schema
  const qwen25 = await ChatTemplate.fromSource(readFileSync(corpusDir("templates", "Qwen-Qwen2.5-7B-Instruct.jinja"), "utf8"), { bos: "<s>", eos: "</s>" });
  const g = (await qwen25.apply(MODES["openai named"]())).grammar;
  assert.equal(root(g), 'root ::= "<|im_start|>assistant\\n" space tool-calls');
  assert.match(g, /^tool-get-weather-schema-days ::= \("1" \| "3"\)$/m);
});

test("forced tool calls: every tool-capable corpus template × required / named / any gives a well-formed call", async () => {
  const engine = await loadEngine({ target: randomPair(1, { toolCalls: true }).target, contextSize: 512 });
  const failures: string[] = [];
  let runs = 0;
  for (const file of readdirSync(corpusDir("templates")).filter((f) => f.endsWith(".jinja")).sort()) {
    const template = await ChatTemplate.fromSource(readFileSync(corpusDir("templates", file), "utf8"), { bos: "<s>", eos: "</s>" });
    if (!(await template.caps()).supports_tool_calls || file in OPEN_ENDED) continue;
    for (const [mode, request] of Object.entries(MODES)) {
      runs++;
      const prompt = await template.apply(request());
      // the prompt's tail (ending with the generation prompt) keeps the prefill small on CI's two cores; the
      // grammar, not the context, decides what shape the output can take
      const tokens = (await engine.tokenize(prompt.prompt)).slice(-64);
      const result = await engine.generate(tokens, { maxTokens: 300, temperature: 0, chat: prompt }).catch((e: Error) => e);
      if (result instanceof Error) {
        failures.push(`${file} (${mode}): ${result.message}`);
        continue;
      }
      const parsed = await parseChatOutput(result.text, prompt).catch((e: Error) => ({ toolCalls: [], error: e.message }));
      const call = parsed.toolCalls[0];
      const ok = result.stopReason !== "length" && parsed.toolCalls.length === 1 && call.name === "get_weather" && DAYS.includes(daysOf(call.arguments));
      if (!ok) failures.push(`${file} (${mode}): ${result.stopReason}, ${JSON.stringify(result.text.slice(0, 150))} → ${JSON.stringify(parsed.toolCalls)}`);
    }
  }
  assert.equal(runs, 3 * 40);
  assert.deepEqual(failures, []);
});
