// POST /v1/responses through the official openai SDK (responses.create / responses.stream) on the demo models:
// text, a function-call round trip, reasoning items back in the input, previous_response_id, an answer cut by
// max_output_tokens, and the 400s that name the field.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import OpenAI from "openai";
import { postJson, rawStream, startEndpoint, WEATHER_TOOL, type EndpointProcess } from "../../helpers/endpoint";

let endpoint: EndpointProcess;
let openai: OpenAI;
before(async () => {
  endpoint = await startEndpoint();
  openai = new OpenAI({ baseURL: `${endpoint.url}/v1`, apiKey: "dummy", maxRetries: 0 });
});
after(() => endpoint.stop());

const tool: OpenAI.Responses.FunctionTool = {
  type: "function",
  name: WEATHER_TOOL.function.name,
  description: WEATHER_TOOL.function.description,
  parameters: WEATHER_TOOL.function.parameters,
  strict: false,
};
const GREEDY = { temperature: 0 };

test("responses.create: a response object with a message item, usage with cached tokens", async () => {
  const r = await openai.responses.create({ model: "m", input: "Say hello.", max_output_tokens: 8, ...GREEDY });
  assert.equal(r.object, "response");
  assert.match(r.id, /^resp_/);
  assert.ok(r.status === "completed" || r.status === "incomplete", r.status);
  const message = r.output.find((i) => i.type === "message")!;
  assert.equal(message.role, "assistant");
  assert.equal(r.output_text, (message.content[0] as OpenAI.Responses.ResponseOutputText).text);
  assert.ok(r.usage!.input_tokens > 0 && r.usage!.output_tokens > 0);
  assert.equal(typeof r.usage!.input_tokens_details.cached_tokens, "number");
  assert.equal(r.usage!.total_tokens, r.usage!.input_tokens + r.usage!.output_tokens);
});

test("max_output_tokens cuts the answer: status incomplete, reason max_output_tokens", async () => {
  const r = await openai.responses.create({ model: "m", input: "Write a long story.", max_output_tokens: 3, ...GREEDY });
  assert.equal(r.status, "incomplete");
  assert.deepEqual(r.incomplete_details, { reason: "max_output_tokens" });
  assert.equal(r.usage!.output_tokens, 3);
});

test("responses.stream: created and in_progress first, sequence numbers in order, the final response as the SDK assembles it", async () => {
  const stream = openai.responses.stream({ model: "m", input: "Say hello.", max_output_tokens: 8, ...GREEDY });
  const types: string[] = [];
  const sequence: number[] = [];
  for await (const e of stream) {
    types.push(e.type);
    sequence.push(e.sequence_number);
  }
  const final = await stream.finalResponse();
  assert.deepEqual(types.slice(0, 2), ["response.created", "response.in_progress"]);
  assert.deepEqual(
    sequence,
    sequence.map((_, i) => i),
  );
  assert.ok(["response.completed", "response.incomplete"].includes(types.at(-1)!), types.at(-1));
  assert.ok(types.includes("response.output_text.delta") && types.includes("response.output_item.done"), types.join());
  const whole = await openai.responses.create({ model: "m", input: "Say hello.", max_output_tokens: 8, ...GREEDY });
  assert.equal(final.output_text, whole.output_text, "greedy: the stream and the whole response agree");
});

test("a function-call round trip: tool_choice required gives a function_call; its output back in the input gives a message", async () => {
  const input: OpenAI.Responses.ResponseInputItem[] = [{ role: "user", content: "Weather in Paris?" }];
  const first = await openai.responses.create({
    model: "m",
    input,
    tools: [tool],
    tool_choice: "required",
    parallel_tool_calls: false,
    max_output_tokens: 200,
    ...GREEDY,
  });
  assert.equal(first.status, "completed");
  const call = first.output.find((i): i is OpenAI.Responses.ResponseFunctionToolCall => i.type === "function_call")!;
  assert.equal(call.name, "get_weather");
  assert.equal(typeof JSON.parse(call.arguments).city, "string");
  // the streamed call is the same, argument deltas included
  const stream = openai.responses.stream({
    model: "m",
    input,
    tools: [tool],
    tool_choice: "required",
    parallel_tool_calls: false,
    max_output_tokens: 200,
    ...GREEDY,
  });
  const deltas: string[] = [];
  stream.on("response.function_call_arguments.delta", (e) => deltas.push(e.delta));
  const streamedCall = (await stream.finalResponse()).output.find(
    (i) => i.type === "function_call",
  ) as OpenAI.Responses.ResponseFunctionToolCall;
  assert.equal(streamedCall.arguments, call.arguments);
  assert.equal(deltas.join(""), call.arguments);

  const second = await openai.responses.create({
    model: "m",
    input: [...input, call, { type: "function_call_output", call_id: call.call_id, output: "Sunny, 21 °C" }],
    tools: [tool],
    tool_choice: "none",
    max_output_tokens: 8,
    ...GREEDY,
  });
  assert.ok(second.output.some((i) => i.type === "message"));
});

test("previous_response_id continues a stored response; an unknown one or one not stored is a 400 that says so", async () => {
  const first = await openai.responses.create({ model: "m", input: "My name is Ada.", store: true, max_output_tokens: 4, ...GREEDY });
  const next = await openai.responses.create({
    model: "m",
    input: "What is my name?",
    previous_response_id: first.id,
    max_output_tokens: 4,
    ...GREEDY,
  });
  assert.equal(next.previous_response_id, first.id);
  // the whole conversation was prompted: more than the new input alone
  const alone = await openai.responses.create({ model: "m", input: "What is my name?", max_output_tokens: 4, ...GREEDY });
  assert.ok(next.usage!.input_tokens > alone.usage!.input_tokens + 5, `${next.usage!.input_tokens} vs ${alone.usage!.input_tokens}`);

  const unstored = await openai.responses.create({ model: "m", input: "Hi", max_output_tokens: 2 });
  for (const id of [unstored.id, "resp_nothing"]) {
    const r = await postJson(`${endpoint.url}/v1/responses`, { model: "m", input: "Hi", previous_response_id: id });
    assert.equal(r.status, 400);
    assert.equal(r.json.error.param, "previous_response_id");
    assert.match(r.json.error.message, /store: true/);
  }
});

test("a reasoning item and instructions in the input are accepted; non-function tools are left out, not refused", async () => {
  const r = await openai.responses.create({
    model: "m",
    instructions: "Answer briefly.",
    input: [
      { role: "user", content: [{ type: "input_text", text: "Hi" }] },
      { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "The user greets." }] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Hello!", annotations: [] }] } as never,
      { role: "user", content: "And now?" },
    ],
    tools: [tool, { type: "web_search" }],
    include: ["reasoning.encrypted_content"],
    reasoning: { effort: "low", summary: "auto" },
    max_output_tokens: 4,
  });
  assert.equal(r.instructions, "Answer briefly.");
  await endpoint.waitForStderr(/tools\[1\] \(web_search\): left out/);
});

test("what the endpoint cannot do is a 400 that names the field", async () => {
  const cases: [object, string, RegExp][] = [
    [{ input: [{ type: "image_generation_call" }] }, "input[0].type", /'image_generation_call' items are not supported/],
    [{ input: [{ role: "user", content: [{ type: "input_image", image_url: "x" }] }] }, "input[0].content[0].type", /text only/],
    [{ input: "x", background: true }, "background", /not supported/],
    [{ input: 3 }, "input", /a string or an array/],
    [{}, "input", /required/],
  ];
  for (const [body, param, message] of cases) {
    const r = await postJson(`${endpoint.url}/v1/responses`, { model: "m", ...body });
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.equal(r.json.error.param, param);
    assert.match(r.json.error.message, message);
  }
});

test("a stream's error before it starts is a JSON answer; the raw events carry their type in `event:`", async () => {
  const overflow = await postJson(`${endpoint.url}/v1/responses`, { model: "m", input: "x ".repeat(5000), stream: true });
  assert.equal(overflow.status, 400);
  assert.equal(overflow.json.error.code, "context_length_exceeded");
  const raw = await rawStream(`${endpoint.url}/v1/responses`, { model: "m", input: "Hi", stream: true, max_output_tokens: 2 });
  for (const e of raw.events) assert.equal(e.event, e.data.type);
});
