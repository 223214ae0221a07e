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
  parseChatRequest({
    model: "m",
    messages,
    tools: openaiTools,
    tool_choice,
    parallel_tool_calls: false,
    chat_template_kwargs: { enable_thinking: false },
  }).request;
const MODES: Record<string, () => ChatRequest> = {
  "openai required": () => openai("required"),
  "openai named": () => openai({ type: "function", function: { name: "get_weather" } }),
  "anthropic any": () =>
    parseMessagesRequest(
      {
        model: "m",
        max_tokens: 1,
        messages,
        tools: [{ name: "get_weather", description: "Weather forecast", input_schema: parameters }],
        tool_choice: { type: "any", disable_parallel_tool_use: true },
      },
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

test("forced tool calls: root of the Qwen3.5 grammar goes straight to the call; the arguments keep their schema", async () => {
  const template = await ChatTemplate.fromSource(readFileSync(corpusDir("templates", "Qwen3.5-4B.jinja"), "utf8"), {
    bos: "<s>",
    eos: "</s>",
  });
  const root = (g: string) => g.split("\n").find((l) => l.startsWith("root ::= "))!;
  const auto = await template.apply({ ...MODES["openai required"](), tool_choice: "auto" });
  const forced = await template.apply(MODES["openai required"]());
  // llama.cpp's required grammar: `… space until-N space tool-call-root`
  const required = await template.apply({
    ...MODES["openai required"](),
    tool_choice: "required",
    chat_template_kwargs: { enable_thinking: true },
  });
  assert.match(root(required.describe().grammar), / space tool-call-root$/);
  assert.doesNotMatch(root(required.describe().grammar), /until-\d+\?? space tool-call-root$/);
  // thinking off: the reasoning holds only what the generation prompt wrote (`<think>\n\n</think>`), no free text
  assert.equal(
    root(forced.describe().grammar),
    'root ::= "<|im_start|>assistant\\n" ("<think>" space "\\n" ("</think>" | ))? space space tool-call-root',
  );
  assert.ok(auto.describe().grammarLazy);
  // XML-style formats take the integer argument by its schema
  assert.match(forced.describe().grammar, /^tool-get-weather-arg-days-schema ::= \("1" \| "3"\)/m);
  // JSON formats keep the whole arguments schema
  const qwen25 = await ChatTemplate.fromSource(readFileSync(corpusDir("templates", "Qwen-Qwen2.5-7B-Instruct.jinja"), "utf8"), {
    bos: "<s>",
    eos: "</s>",
  });
  const g = (await qwen25.apply(MODES["openai named"]())).describe().grammar;
  assert.equal(root(g), 'root ::= "<|im_start|>assistant\\n" space tool-calls');
  assert.match(g, /^tool-get-weather-schema-days ::= \("1" \| "3"\)$/m);
});

test("parallel_tool_calls false holds a call in its own markers (Qwen2.5's <tool_call>) to one, under auto and forced; true keeps the repetition", async () => {
  const toolCallsRule = async (file: string, request: ChatRequest) => {
    const template = await ChatTemplate.fromSource(readFileSync(corpusDir("templates", file), "utf8"), { bos: "<s>", eos: "</s>" });
    return (await template.apply(request))
      .describe()
      .grammar.split("\n")
      .find((l) => l.startsWith("tool-calls ::= "));
  };
  for (const tool_choice of ["auto", "required"]) {
    const single = { ...MODES["openai required"](), tool_choice } as ChatRequest;
    const one = await toolCallsRule("Qwen-Qwen2.5-7B-Instruct.jinja", single);
    // llama.cpp repeats it one or more times whatever the request says
    const several = await toolCallsRule("Qwen-Qwen2.5-7B-Instruct.jinja", { ...single, parallel_tool_calls: true });
    assert.match(one!, /^tool-calls ::= tool-call\?? space$/);
    assert.equal(several, `tool-calls ::= (${one!.slice("tool-calls ::= ".length)})+`);
  }
  const anthropicSingle = MODES["anthropic any"]();
  assert.equal(await toolCallsRule("NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja", anthropicSingle), "tool-calls ::= tool-call space");
  // no template's grammar keeps a repeated tool-calls rule once the request asks for one call
  for (const file of readdirSync(corpusDir("templates")).filter((f) => f.endsWith(".jinja"))) {
    const template = await ChatTemplate.fromSource(readFileSync(corpusDir("templates", file), "utf8"), { bos: "<s>", eos: "</s>" });
    if (!(await template.caps()).supports_tool_calls) continue;
    const rule = (await template.apply(MODES["openai required"]()))
      .describe()
      .grammar.split("\n")
      .find((l) => l.startsWith("tool-calls ::= "));
    assert.doesNotMatch(rule ?? "", /\)\+$/, file);
  }
});

test("forced tool calls: free text in a call's header is bounded (gpt-oss's <|constrain|> type, muse-glimmer's recipient); the arguments keep their schema", async () => {
  const rule = async (file: string) => {
    const template = await ChatTemplate.fromSource(readFileSync(corpusDir("templates", file), "utf8"), { bos: "<s>", eos: "</s>" });
    const grammar = (await template.apply(MODES["openai named"]())).describe().grammar;
    return grammar.split("\n").find((l) => l.startsWith("tool-get-weather ::= "))!;
  };
  const gptOss = await rule("openai-gpt-oss-120b.jinja");
  assert.match(gptOss, /"<\|constrain\|>"\? \[A-Za-z0-9_-\]\{1,64\}\)\? "<\|message\|>"\) tool-get-weather-schema \|/);
  assert.doesNotMatch(gptOss, /\]\+/);
  const muse = await rule("muse-glimmer.jinja");
  assert.match(muse, /^tool-get-weather ::= \(" to=" \[\^<\]\{0,64\} "<\|message\|><atem:function_calls>"/);
  assert.match(muse, / tool-get-weather-arg-days-schema "<\/atem:parameter>"/);
});

test("forced tool calls: arguments held to the schema (LFM2.5's Python-style values, Kimi-K3's and muse-glimmer's required argument); Kimi-K3's opened reasoning must close", async () => {
  const rules = async (file: string) => {
    const template = await ChatTemplate.fromSource(readFileSync(corpusDir("templates", file), "utf8"), { bos: "<s>", eos: "</s>" });
    const grammar = (await template.apply(MODES["openai required"]())).describe().grammar;
    return (name: string) => grammar.split("\n").find((l) => l.startsWith(`${name} ::= `))!;
  };
  const lfm = await rules("LFM2.5-8B-A1B.jinja");
  assert.match(lfm("tool-get-weather"), /\("days" "="\) tool-get-weather-arg-days-value\)/);
  assert.equal(lfm("tool-get-weather-arg-days-value"), 'tool-get-weather-arg-days-value ::= ("1" | "3")');
  const kimi = await rules("Kimi-K3.jinja");
  assert.match(
    kimi("kimi-k3-tool-get-weather"),
    /"<\|sep\|>"\) \(kimi-k3-arg-get-weather-days\) "<\|close\|>call<\|sep\|>"$/,
    "the argument once, not (…)*",
  );
  assert.match(kimi("kimi-k3-arg-get-weather-days"), / tool-get-weather-arg-days-value "<\|close\|>argument<\|sep\|>"$/);
  assert.match(kimi("root"), /\("<\|open\|>think<\|sep\|>"\? "<\|close\|>think<\|sep\|>"\)\?/);
  const muse = await rules("muse-glimmer.jinja");
  assert.doesNotMatch(muse("tool-get-weather"), /"<\/atem:parameter>"\) space\)\*/);
  const gemma = await rules("google-gemma-4-31B-it.jinja");
  assert.equal(gemma("tool-get-weather"), 'tool-get-weather ::= ("get_weather") tool-get-weather-gemma-args');
  assert.equal(gemma("tool-get-weather-gemma-args"), 'tool-get-weather-gemma-args ::= ("{" "days:" ("1" | "3") "}")');
});

test("forced tool calls: gemma 4's arguments in its own syntax: bare sorted keys, <|\"|> strings, the optional ones after the required", async () => {
  const template = await ChatTemplate.fromSource(readFileSync(corpusDir("templates", "google-gemma-4-31B-it.jinja"), "utf8"), {
    bos: "<s>",
    eos: "</s>",
  });
  const parameters = {
    type: "object",
    properties: {
      verbose: { type: "boolean" },
      units: { enum: ["c", "f"] },
      city: { type: "string" },
      days: { type: "integer" },
      tags: { type: "array", items: { type: "string" } },
    },
    required: ["units", "city"],
  };
  const request = parseChatRequest({
    model: "m",
    messages,
    tools: [{ type: "function", function: { name: "get_weather", parameters } }],
    tool_choice: "required",
  }).request;
  const grammar = (await template.apply(request)).describe().grammar;
  const rule = grammar.split("\n").find((l) => l.startsWith("tool-get-weather-gemma-args ::= "));
  assert.equal(
    rule,
    'tool-get-weather-gemma-args ::= ("{" "city:" gemma4-string "," "units:" ("<|\\"|>c<|\\"|>" | "<|\\"|>f<|\\"|>") ("," "days:" ("-"? ("0" | [1-9] [0-9]{0,15})))? ("," "tags:" ("[" (gemma4-string ("," gemma4-string)*)? "]"))? ("," "verbose:" gemma4-bool)? "}")',
  );
  const parsed = await parseChatOutput(
    '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,units:<|"|>c<|"|>,days:3}<tool_call|>',
    await template.apply(request),
  );
  assert.deepEqual(JSON.parse(parsed.toolCalls[0].arguments), { city: "Paris", units: "c", days: 3 });
});

test("forced tool calls: every tool-capable corpus template × required / named / any gives a well-formed call", async () => {
  const engine = await loadEngine({ target: randomPair(1, { toolCalls: true }).target, contextSize: 512 });
  const failures: string[] = [];
  let runs = 0;
  for (const file of readdirSync(corpusDir("templates"))
    .filter((f) => f.endsWith(".jinja"))
    .sort()) {
    const template = await ChatTemplate.fromSource(readFileSync(corpusDir("templates", file), "utf8"), { bos: "<s>", eos: "</s>" });
    if (!(await template.caps()).supports_tool_calls) continue;
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
      const ok =
        result.stopReason !== "length" &&
        parsed.toolCalls.length === 1 &&
        call.name === "get_weather" &&
        DAYS.includes(daysOf(call.arguments));
      if (!ok)
        failures.push(
          `${file} (${mode}): ${result.stopReason}, ${JSON.stringify(result.text.slice(0, 150))} → ${JSON.stringify(parsed.toolCalls)}`,
        );
    }
  }
  assert.equal(runs, 3 * 50);
  assert.deepEqual(failures, []);
});
