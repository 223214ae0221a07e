// The agent demo (native/endpoint/chat/agentDemo.ts): on the demo models, a request with tools under auto gets a
// schema-valid call (the shell tool running `ls` when one is offered), and a turn answering a tool result gets a
// short text quoting it, on every API, streamed or not; never on a model whose own metadata does not say so.
import Anthropic from "@anthropic-ai/sdk";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import OpenAI from "openai";
import { answerQuoting, demoArguments, literalGrammar, preferredTool } from "../../../native/endpoint/chat/agentDemo";
import { isAgentDemo } from "../../../native/testModels";
import { ensureDemoModels } from "../../../native/testModels/demo";
import { startEndpoint, storageDir, WEATHER_TOOL, type EndpointProcess } from "../../helpers/endpoint";
import { modelDir, randomPair } from "../../helpers/native";

let endpoint: EndpointProcess;
let openai: OpenAI;
let anthropic: Anthropic;
before(async () => {
  endpoint = await startEndpoint();
  openai = new OpenAI({ baseURL: `${endpoint.url}/v1`, apiKey: "dummy", maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: endpoint.url, apiKey: "dummy", maxRetries: 0 });
});
after(() => endpoint.stop());

const BASH = {
  type: "function" as const,
  function: {
    name: "Bash",
    description: "Run a shell command",
    parameters: {
      type: "object",
      properties: { command: { type: "string" }, description: { type: "string" }, timeout: { type: "number" } },
      required: ["command"],
    },
  },
};
const RESULT = "notes.txt\nreport-2024.md";
const QUOTE = 'The tool returned: "notes.txt report-2024.md"';

test("the demo GGUF carries the mark; its draft, another random pair and a file that is no GGUF do not", () => {
  const demo = ensureDemoModels({ dir: join(storageDir, "demo-models") });
  assert.equal(isAgentDemo(demo.target), true);
  assert.equal(isAgentDemo(demo.draft), false);
  assert.equal(isAgentDemo(randomPair(1, { toolCalls: true }).target), false);
  const notGguf = join(modelDir, "not.gguf");
  writeFileSync(notGguf, "hello");
  assert.equal(isAgentDemo(notGguf), false);
});

test("the arguments: a value for each required field the schema accepts, `ls` for a command, the shell tool first", () => {
  assert.deepEqual(demoArguments(BASH.function.parameters), { command: "ls" });
  assert.deepEqual(demoArguments(WEATHER_TOOL.function.parameters), { city: "demo" });
  assert.deepEqual(
    demoArguments({
      type: "object",
      properties: {
        cmd: { type: "array", items: { type: "string" } },
        path: { type: "string" },
        n: { type: "integer", minimum: 3 },
        mode: { enum: ["a", "b"] },
        flag: { type: "boolean" },
        name: { type: "string", minLength: 6, maxLength: 8 },
        nested: { type: "object", properties: { x: { type: "string" } }, required: ["x"] },
      },
      required: ["path", "n", "mode", "flag", "name", "nested"],
    }),
    { path: ".", n: 3, mode: "a", flag: false, name: "demo..", nested: { x: "demo" }, cmd: ["ls"] },
  );
  const named = (name: string) => ({ type: "function", function: { name } });
  assert.equal(preferredTool([named("Read"), named("Glob"), named("run_shell_command")]).function!.name, "run_shell_command");
  assert.equal(preferredTool([named("Read"), named("list_directory")]).function!.name, "list_directory");
  assert.equal(preferredTool([named("Read"), named("Write")]).function!.name, "Read");
  assert.equal(literalGrammar('a "b"\\\n'), 'root ::= "a \\"b\\"\\\\\\n"\n');
  assert.equal(answerQuoting("x".repeat(500)).length < 200, true);
});

test("OpenAI chat, tools under auto: a call to the shell tool running ls, streamed or not", async () => {
  const params = {
    model: "m",
    messages: [{ role: "user" as const, content: "What files are here?" }],
    tools: [WEATHER_TOOL, BASH],
    max_tokens: 100,
  };
  const whole = await openai.chat.completions.create(params);
  assert.equal(whole.choices[0].finish_reason, "tool_calls");
  const call = whole.choices[0].message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
  assert.equal(call.function.name, "Bash");
  assert.deepEqual(JSON.parse(call.function.arguments), { command: "ls" });
  const streamed = await openai.chat.completions.stream(params).finalChatCompletion();
  assert.deepEqual(streamed.choices[0].message.tool_calls!.length, 1);
  assert.deepEqual(JSON.parse(streamed.choices[0].message.tool_calls![0].function.arguments), { command: "ls" });
  // the weather tool alone: its schema-valid arguments
  const weather = await openai.chat.completions.create({ ...params, tools: [WEATHER_TOOL] });
  const w = weather.choices[0].message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
  assert.deepEqual(JSON.parse(w.function.arguments), { city: "demo" });
});

test("a tool result: a short answer quoting it (OpenAI chat, Anthropic, Responses)", async () => {
  const chat = await openai.chat.completions.create({
    model: "m",
    tools: [BASH],
    max_tokens: 100,
    messages: [
      { role: "user", content: "What files are here?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "Bash", arguments: '{"command":"ls"}' } }],
      },
      { role: "tool", tool_call_id: "call_1", content: RESULT },
    ],
  });
  assert.equal(chat.choices[0].message.content, QUOTE);
  assert.equal(chat.choices[0].finish_reason, "stop");

  const tools = [
    { name: "Bash", description: "Run a shell command", input_schema: BASH.function.parameters as Anthropic.Tool.InputSchema },
  ];
  const first = await anthropic.messages.create({
    model: "m",
    max_tokens: 100,
    tools,
    messages: [{ role: "user", content: "What files are here?" }],
  });
  assert.equal(first.stop_reason, "tool_use");
  const use = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === "tool_use")!;
  assert.deepEqual(use.input, { command: "ls" });
  const second = await anthropic.messages
    .stream({
      model: "m",
      max_tokens: 100,
      tools,
      messages: [
        { role: "user", content: "What files are here?" },
        { role: "assistant", content: first.content },
        // Claude Code adds its reminders to the turn that carries the results
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: use.id, content: RESULT },
            { type: "text", text: "<system-reminder>x</system-reminder>" },
          ],
        },
      ],
    })
    .finalMessage();
  assert.equal(second.stop_reason, "end_turn");
  assert.deepEqual(
    second.content.map((b) => (b.type === "text" ? b.text : b.type)),
    [QUOTE],
  );

  const tool = {
    type: "function" as const,
    name: "exec_command",
    parameters: { type: "object", properties: { cmd: { type: "string" } }, required: ["cmd"] },
    strict: false,
  };
  const call = await openai.responses.create({ model: "m", input: "List the files.", tools: [tool], max_output_tokens: 100 });
  const fc = call.output.find((i): i is OpenAI.Responses.ResponseFunctionToolCall => i.type === "function_call")!;
  assert.deepEqual(JSON.parse(fc.arguments), { cmd: "ls" });
  const input: OpenAI.Responses.ResponseInputItem[] = [
    { role: "user", content: "List the files." },
    fc,
    { type: "function_call_output", call_id: fc.call_id, output: RESULT },
  ];
  const answer = await openai.responses.stream({ model: "m", input, tools: [tool], max_output_tokens: 100 }).finalResponse();
  assert.equal(answer.output_text, QUOTE);
});

test("tool_choice none is not steered", async () => {
  const none = await openai.chat.completions.create({
    model: "m",
    messages: [{ role: "user", content: "What files are here?" }],
    tools: [BASH],
    tool_choice: "none",
    max_tokens: 20,
    temperature: 0,
  });
  assert.equal(none.choices[0].message.tool_calls, undefined);
});

test("a forced call (required, or a tool named) is one call with the demo's arguments, on every API, even after a tool result", async () => {
  // left to the random weights, these came as one to several calls of random strings (the ai SDK's forced call)
  const calls = (m: OpenAI.ChatCompletionMessage) =>
    (m.tool_calls ?? []).map((c) => {
      const f = (c as OpenAI.ChatCompletionMessageFunctionToolCall).function;
      return [f.name, JSON.parse(f.arguments)];
    });
  const afterResult: OpenAI.ChatCompletionMessageParam[] = [
    { role: "user", content: "What files are here?" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "Bash", arguments: '{"command":"ls"}' } }],
    },
    { role: "tool", tool_call_id: "call_1", content: RESULT },
  ];
  for (const messages of [
    [{ role: "user" as const, content: "Note it." }],
    [{ role: "user" as const, content: "Again, note it." }],
    afterResult,
  ]) {
    const required = await openai.chat.completions.create({ model: "m", messages, tools: [WEATHER_TOOL, BASH], tool_choice: "required" });
    assert.deepEqual(calls(required.choices[0].message), [["Bash", { command: "ls" }]]);
    assert.equal(required.choices[0].finish_reason, "tool_calls");
    const named = await openai.chat.completions.create({
      model: "m",
      messages,
      tools: [WEATHER_TOOL, BASH],
      tool_choice: { type: "function", function: { name: "get_weather" } },
    });
    assert.deepEqual(calls(named.choices[0].message), [["get_weather", { city: "demo" }]]);
  }

  const tools = [{ name: "get_weather", input_schema: WEATHER_TOOL.function.parameters as Anthropic.Tool.InputSchema }];
  for (const tool_choice of [{ type: "any" as const }, { type: "tool" as const, name: "get_weather" }]) {
    const r = await anthropic.messages.create({
      model: "m",
      max_tokens: 200,
      tools,
      tool_choice,
      messages: [{ role: "user", content: "Note it." }],
    });
    assert.equal(r.stop_reason, "tool_use");
    assert.deepEqual(
      r.content.filter((b) => b.type === "tool_use").map((b) => [b.name, b.input]),
      [["get_weather", { city: "demo" }]],
    );
  }

  const fn = {
    type: "function" as const,
    name: "exec_command",
    parameters: { type: "object", properties: { cmd: { type: "string" } }, required: ["cmd"] },
    strict: false,
  };
  const r = await openai.responses.create({ model: "m", input: "Note it.", tools: [fn], tool_choice: "required" });
  assert.deepEqual(
    r.output.filter((i) => i.type === "function_call").map((i) => JSON.parse(i.arguments)),
    [{ cmd: "ls" }],
  );
});

test("a model without the mark is never steered: the same tool-result turn gets its own output", async () => {
  const pair = randomPair(1, { toolCalls: true });
  const plain = await startEndpoint(["--target", pair.target, "--draft", pair.draft]);
  try {
    const client = new OpenAI({ baseURL: `${plain.url}/v1`, apiKey: "dummy", maxRetries: 0 });
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: "user", content: "What files are here?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "Bash", arguments: '{"command":"ls"}' } }],
      },
      { role: "tool", tool_call_id: "call_1", content: RESULT },
    ];
    const r = await client.chat.completions.create({ model: "m", messages, tools: [BASH], max_tokens: 30, temperature: 0 });
    assert.notEqual(r.choices[0].message.content, QUOTE);
  } finally {
    await plain.stop();
  }
});

test("the openai SDK's Responses API drives an agent loop: the call really runs, its output comes back quoted", async () => {
  const dir = mkdtempSync(join(modelDir, "agent-"));
  writeFileSync(join(dir, "found-by-the-agent.txt"), "");
  const tool = {
    type: "function" as const,
    name: "exec_command",
    description: "Run a shell command in the workspace",
    parameters: { type: "object", properties: { cmd: { type: "string" } }, required: ["cmd"] },
    strict: false,
  };
  const input: OpenAI.Responses.ResponseInput = [{ role: "user", content: "Which files are in the workspace?" }];
  let requests = 0;
  for (;;) {
    requests++;
    const r = await openai.responses.stream({ model: "m", input, tools: [tool], max_output_tokens: 200 }).finalResponse();
    const calls = r.output.filter((i) => i.type === "function_call") as OpenAI.Responses.ResponseFunctionToolCall[];
    if (!calls.length) {
      assert.match(r.output_text, /found-by-the-agent\.txt/);
      break;
    }
    assert.ok(requests < 3, "the loop ends after one call");
    for (const call of calls) {
      const output = execFileSync("sh", ["-c", JSON.parse(call.arguments).cmd], { cwd: dir, encoding: "utf8" });
      input.push(call, { type: "function_call_output", call_id: call.call_id, output });
    }
  }
  assert.equal(requests, 2);
});
