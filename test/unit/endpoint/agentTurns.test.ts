// What an agent loop meets turn after turn: the stream's usage at message_start is the final one (cache reads
// included), a tool call cut off by max_tokens is shown as cut off (as the real APIs do), and an image a tool
// returned does not end the turn on a text-only model.
import Anthropic from "@anthropic-ai/sdk";
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import OpenAI from "openai";
import { postJson, rawStream, startEndpoint, WEATHER_TOOL, type EndpointProcess } from "../../helpers/endpoint";

let endpoint: EndpointProcess;
let anthropic: Anthropic;
let openai: OpenAI;
before(async () => {
  endpoint = await startEndpoint();
  anthropic = new Anthropic({ baseURL: endpoint.url, apiKey: "dummy", maxRetries: 0 });
  openai = new OpenAI({ baseURL: `${endpoint.url}/v1`, apiKey: "dummy", maxRetries: 0 });
});
after(() => endpoint.stop());

const weather = {
  name: WEATHER_TOOL.function.name,
  description: WEATHER_TOOL.function.description,
  input_schema: WEATHER_TOOL.function.parameters,
} as Anthropic.Tool;
const GREEDY = { temperature: 0 } as object;

test("Anthropic stream: message_start.usage is the final usage's split of the prompt (cache reads included)", async () => {
  const body = {
    model: "m",
    max_tokens: 4,
    stream: true,
    messages: [{ role: "user", content: "Tell me about the weather in a long sentence." }],
  };
  await rawStream(`${endpoint.url}/v1/messages`, body);
  // the same prompt again: all but its last token come from the KV cache
  const raw = await rawStream(`${endpoint.url}/v1/messages`, body);
  const start = raw.events.find((e) => e.event === "message_start")!.data.message.usage;
  const end = raw.events.find((e) => e.event === "message_delta")!.data.usage;
  assert.ok(end.cache_read_input_tokens > 0);
  assert.deepEqual({ ...start, output_tokens: end.output_tokens }, end);
});

test("a tool call cut off by max_tokens: OpenAI finish_reason length with the arguments as far as they got; Anthropic stop_reason max_tokens, input parsed as far as it goes", async () => {
  const messages = [{ role: "user" as const, content: "Weather in Paris?" }];
  const call = { model: "m", messages, tools: [WEATHER_TOOL], tool_choice: "required" as const, parallel_tool_calls: false, ...GREEDY };
  const full = await openai.chat.completions.create({ ...call, max_tokens: 200 });
  assert.equal(full.choices[0].finish_reason, "tool_calls");
  const complete = (full.choices[0].message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall).function.arguments;
  // five tokens short of the whole call: inside the city's string
  const cut = await openai.chat.completions.create({ ...call, max_tokens: full.usage!.completion_tokens - 5 });
  assert.equal(cut.choices[0].finish_reason, "length");
  const partial = (cut.choices[0].message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall).function.arguments;
  assert.ok(complete.startsWith(partial) && partial.length < complete.length - 1, `${partial} / ${complete}`);
  assert.throws(() => JSON.parse(partial));

  const params = {
    model: "m",
    messages,
    tools: [weather],
    tool_choice: { type: "any" as const, disable_parallel_tool_use: true },
    ...GREEDY,
  };
  const wholeCall = await anthropic.messages.create({ ...params, max_tokens: 200 });
  assert.equal(wholeCall.stop_reason, "tool_use");
  const short = { ...params, max_tokens: wholeCall.usage.output_tokens - 5 };
  const whole = await anthropic.messages.create(short);
  assert.equal(whole.stop_reason, "max_tokens");
  const use = whole.content.find((b) => b.type === "tool_use") as Anthropic.ToolUseBlock;
  const city = (use.input as { city: string }).city;
  // as far as the string got, not the empty object of a call without arguments
  assert.ok(city.length > 0 && ((wholeCall.content[0] as Anthropic.ToolUseBlock).input as { city: string }).city.startsWith(city), city);
  // what the SDK assembles from the stream's input_json_delta
  const streamed = (await anthropic.messages.stream(short).finalMessage()).content.find(
    (b) => b.type === "tool_use",
  ) as Anthropic.ToolUseBlock;
  assert.deepEqual(use.input, streamed.input);
});

test("an image or document in a tool result becomes a note naming it (and the log says so); elsewhere a 400", async () => {
  const image = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } };
  const document = { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0=" } };
  const conversation = [
    { role: "user", content: "Take a screenshot" },
    { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "screenshot", input: {} }] },
    {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "Here it is:" }, image, document] }],
    },
  ];
  const tools = [{ name: "screenshot", input_schema: { type: "object" } }];
  const { prompt } = (await postJson(`${endpoint.url}/v1/messages/apply-template`, { model: "m", messages: conversation, tools })).json;
  assert.match(
    prompt,
    /<tool_response>\nHere it is:\n\[an image \(image\/png\) was left out: the served model reads text only\]\n\[a document \(application\/pdf\) was left out: the served model reads text only\]\n<\/tool_response>/,
  );
  const r = await postJson(`${endpoint.url}/v1/messages`, { model: "m", max_tokens: 2, messages: conversation, tools });
  assert.equal(r.status, 200);
  await endpoint.waitForStderr(/POST \/v1\/messages 200 .*messages\[2\]\.content\[0\]\.content\[2\]: left out of the tool result/);
  assert.match(
    endpoint.stderr,
    /POST \/v1\/messages 200 .*messages\[2\]\.content\[0\]\.content\[1\]: left out of the tool result \(the served model reads text only\)/,
  );
  // outside a tool result the model would be asked to read it: refused
  const direct = await postJson(`${endpoint.url}/v1/messages`, {
    model: "m",
    max_tokens: 2,
    messages: [{ role: "user", content: [image] }],
  });
  assert.equal(direct.status, 400);
  assert.equal(
    direct.json.error.message,
    "messages[0].content[0].type: 'image' blocks are not supported: the served model reads text only",
  );
});
