// The OpenAI API of the endpoint, through the official openai client, on the demo models.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import OpenAI from "openai";
import { ChatTemplate } from "../../../native/engine/chat";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";
import { rawStream, startEndpoint, WEATHER_TOOL, type EndpointProcess } from "../../helpers/endpoint";
import "../../helpers/templateGuard";

let endpoint: EndpointProcess;
let client: OpenAI;

before(async () => {
  endpoint = await startEndpoint();
  client = new OpenAI({ baseURL: `${endpoint.url}/v1`, apiKey: "unused", maxRetries: 0 });
});
after(() => endpoint.stop());

const user = (content: string) => [{ role: "user" as const, content }];

describe("chat completions", () => {
  test("non-streamed: an assistant message, usage and DFlash headers", async () => {
    const { data, response } = await client.chat.completions
      .create({ model: "demo-random", messages: user("Hello"), max_tokens: 12, temperature: 0 })
      .withResponse();
    assert.equal(data.object, "chat.completion");
    assert.equal(data.model, "demo-random");
    assert.equal(data.choices[0].message.role, "assistant");
    assert.equal(typeof data.choices[0].message.content, "string");
    assert.ok(["stop", "length"].includes(data.choices[0].finish_reason));
    assert.ok(data.usage!.completion_tokens >= 1 && data.usage!.completion_tokens <= 12);
    assert.equal(data.usage!.total_tokens, data.usage!.prompt_tokens + data.usage!.completion_tokens);
    // the draft proposes tokens at every step of a DFlash generation; the random pair rarely agrees
    assert.ok(Number(response.headers.get("x-dflash-drafted")) > 0);
    const acceptance = Number(response.headers.get("x-dflash-acceptance"));
    assert.ok(acceptance >= 0 && acceptance <= 1);
    assert.ok(response.headers.get("x-dflash-mean-accepted") !== null);
  });

  test("streamed: the deltas add up to the non-streamed message; usage last with include_usage", async () => {
    const request = { model: "demo-random", messages: user("Tell me a story"), max_tokens: 24, temperature: 0 };
    const whole = await client.chat.completions.create(request);
    const stream = await client.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } });
    let text = "";
    let role: string | undefined;
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      assert.equal(chunk.object, "chat.completion.chunk");
      if (chunk.choices.length === 0) {
        usage = chunk.usage;
        continue;
      }
      role ??= chunk.choices[0].delta.role;
      text += chunk.choices[0].delta.content ?? "";
      finish = chunk.choices[0].finish_reason ?? finish;
    }
    assert.equal(role, "assistant");
    assert.equal(text, whole.choices[0].message.content);
    assert.equal(finish, whole.choices[0].finish_reason);
    assert.equal(usage?.completion_tokens, whole.usage?.completion_tokens);
  });

  test("streamed: the DFlash figures come as trailers, and as timings in the last chunk before usage", async () => {
    const raw = await rawStream(`${endpoint.url}/v1/chat/completions`, {
      model: "m",
      messages: user("Go"),
      max_tokens: 6,
      stream: true,
      stream_options: { include_usage: true },
    });
    assert.equal(
      raw.headers.trailer,
      "x-dflash-acceptance, x-dflash-mean-accepted, x-dflash-drafted, x-dflash-accepted, x-dflash-tokens-per-second",
    );
    const [done, usage, last] = [...raw.events].reverse();
    assert.equal(done.data, "[DONE]");
    assert.deepEqual(usage.data.choices, []);
    assert.equal(String(last.data.timings.draft_n), raw.trailers["x-dflash-drafted"]);
    assert.equal(last.data.timings.dflash.acceptance.toFixed(4), raw.trailers["x-dflash-acceptance"]);
    assert.equal(last.data.timings.predicted_n, usage.data.usage.completion_tokens);
  });

  test("max_completion_tokens bounds the output and reports length", async () => {
    const r = await client.chat.completions.create({
      model: "m",
      messages: user("Go on"),
      max_completion_tokens: 3,
      temperature: 0,
      ignore_eos: true,
    } as never);
    assert.equal((r as OpenAI.ChatCompletion).usage?.completion_tokens, 3);
    assert.equal((r as OpenAI.ChatCompletion).choices[0].finish_reason, "length");
  });

  test("stop ends the output before the stop sequence", async () => {
    const base = { model: "m", messages: user("Count"), max_tokens: 30, temperature: 0, ignore_eos: true } as never;
    const full = ((await client.chat.completions.create(base)) as OpenAI.ChatCompletion).choices[0].message.content!;
    const cut = [...full].slice(5, 7).join("");
    const r = (await client.chat.completions.create({ ...(base as object), stop: [cut] } as never)) as OpenAI.ChatCompletion;
    assert.equal(r.choices[0].finish_reason, "stop");
    assert.equal(r.choices[0].message.content, full.slice(0, full.indexOf(cut)));
  });

  test("a seed makes sampling reproducible", async () => {
    const request = { model: "m", messages: user("Surprise me"), max_tokens: 16, temperature: 1, top_p: 0.9, seed: 42 };
    const a = await client.chat.completions.create(request);
    const b = await client.chat.completions.create(request);
    assert.equal(a.choices[0].message.content, b.choices[0].message.content);
  });

  test("response_format json_schema: the content is JSON of that schema", async () => {
    const schema = { type: "object", properties: { answer: { type: "integer" } }, required: ["answer"], additionalProperties: false };
    const r = await client.chat.completions.create({
      model: "m",
      messages: user("Answer in JSON"),
      max_tokens: 40,
      temperature: 0,
      response_format: { type: "json_schema", json_schema: { name: "answer", schema } },
    });
    const value = JSON.parse(r.choices[0].message.content!);
    assert.ok(Number.isInteger(value.answer));
    assert.deepEqual(Object.keys(value), ["answer"]);
  });

  test("a second turn reuses the first one's prompt from the KV cache", async () => {
    const first = await client.chat.completions.create({
      model: "m",
      messages: user("Remember the number 7"),
      max_tokens: 4,
      temperature: 0,
    });
    const second = await client.chat.completions.create({
      model: "m",
      messages: [
        ...user("Remember the number 7"),
        { role: "assistant", content: first.choices[0].message.content ?? "" },
        ...user("Which number?"),
      ],
      max_tokens: 4,
      temperature: 0,
    });
    assert.ok(second.usage!.prompt_tokens_details!.cached_tokens! > first.usage!.prompt_tokens / 2);
  });
});

describe("tool calls", () => {
  test("tool_choice required: the random model calls the tool (non-streamed)", async () => {
    // sampled, where llama.cpp's own grammar would let the random model write text until max_tokens
    for (const seed of [1, 2, 3]) {
      const r = await client.chat.completions.create({
        model: "m",
        messages: user("Weather in Paris?"),
        tools: [WEATHER_TOOL],
        tool_choice: "required",
        parallel_tool_calls: false,
        max_tokens: 100,
        temperature: 1,
        seed,
      });
      assert.equal(r.choices[0].finish_reason, "tool_calls", `seed ${seed}`);
      assert.equal(r.choices[0].message.content, null);
      const call = r.choices[0].message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
      assert.equal(call.type, "function");
      assert.equal(call.function.name, "get_weather");
      assert.match(call.id, /^call_/);
      assert.equal(typeof JSON.parse(call.function.arguments).city, "string");
    }
  });

  test("a named tool_choice picks that tool; the stream's deltas rebuild the same call", async () => {
    const search = {
      type: "function" as const,
      function: { name: "search", parameters: { type: "object", properties: { q: { type: "string", maxLength: 12 } }, required: ["q"] } },
    };
    const request = {
      model: "m",
      messages: user("Find it"),
      tools: [WEATHER_TOOL, search],
      tool_choice: { type: "function" as const, function: { name: "search" } },
      parallel_tool_calls: false,
      max_tokens: 200,
      temperature: 0,
    };
    const whole = await client.chat.completions.create(request);
    const stream = await client.chat.completions.create({ ...request, stream: true });
    const calls: { id?: string; name?: string; arguments: string }[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      for (const d of chunk.choices[0]?.delta.tool_calls ?? []) {
        calls[d.index] ??= { arguments: "" };
        calls[d.index].id ??= d.id;
        calls[d.index].name ??= d.function?.name;
        calls[d.index].arguments += d.function?.arguments ?? "";
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    const expected = whole.choices[0].message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    assert.equal(expected.function.name, "search");
    assert.equal(calls.length, 1);
    assert.equal(calls[0].name, "search");
    assert.equal(calls[0].arguments, expected.function.arguments);
    assert.match(calls[0].id!, /^call_/);
    assert.equal(finish, "tool_calls");
  });

  test("a tool result reaches the template as a tool message", async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      ...user("Weather in Paris?"),
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
      },
      { role: "tool", tool_call_id: "call_1", content: "sunny, 21 C" },
    ];
    const r = await client.chat.completions.create({ model: "m", messages, tools: [WEATHER_TOOL], max_tokens: 2, temperature: 0 });
    const tpl = await ChatTemplate.fromSource(QWEN3_CHAT_TEMPLATE, { eos: "<|im_end|>" });
    const prompt = await tpl.apply({ messages, tools: [WEATHER_TOOL] });
    assert.match(prompt.prompt, /<tool_response>\nsunny, 21 C\n<\/tool_response>/);
    // the prompt the endpoint generated from is that one, token for token
    const count = await client.completions.create({ model: "m", prompt: prompt.prompt, max_tokens: 1 });
    assert.equal(r.usage!.prompt_tokens, count.usage!.prompt_tokens);
  });
});

describe("completions (raw prompt)", () => {
  test("a rendered prompt as-is generates what the chat route generates from it", async () => {
    const tpl = await ChatTemplate.fromSource(QWEN3_CHAT_TEMPLATE, { eos: "<|im_end|>" });
    const { prompt } = await tpl.apply({ messages: user("Hi there") });
    const chat = await client.chat.completions.create({
      model: "m",
      messages: user("Hi there"),
      max_tokens: 10,
      temperature: 0,
      ignore_eos: true,
    } as never);
    const raw = await client.completions.create({ model: "m", prompt, max_tokens: 10, temperature: 0, ignore_eos: true } as never);
    assert.equal(raw.object, "text_completion");
    assert.equal(raw.usage!.prompt_tokens, (chat as OpenAI.ChatCompletion).usage!.prompt_tokens);
    assert.equal(raw.choices[0].text, (chat as OpenAI.ChatCompletion).choices[0].message.content);
  });

  test("streamed text adds up to the non-streamed text", async () => {
    const request = { model: "m", prompt: "<|im_start|>user\nabc<|im_end|>\n<|im_start|>assistant\n", max_tokens: 12, temperature: 0 };
    const whole = await client.completions.create(request);
    let text = "";
    let finish: string | null = null;
    for await (const chunk of await client.completions.create({ ...request, stream: true })) {
      assert.equal(chunk.object, "text_completion");
      text += chunk.choices[0]?.text ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    assert.equal(text, whole.choices[0].text);
    assert.equal(finish, whole.choices[0].finish_reason);
  });

  test("a prompt of token ids is generated from as given", async () => {
    const r = await client.completions.create({ model: "m", prompt: [104, 105], max_tokens: 2, temperature: 0 });
    assert.equal(r.usage!.prompt_tokens, 2);
  });
});

test("GET /v1/models lists the served model", async () => {
  const list = await client.models.list();
  assert.deepEqual(
    list.data.map((m) => m.id),
    ["demo-random"],
  );
});
