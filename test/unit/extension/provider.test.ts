// The chat provider's adapters against real endpoint processes on the demo models: models only while
// healthy, VS Code-shaped parts → endpoint → streamed parts (text and a forced tool call), cancellation,
// token counts, and the external mode with an API key.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Connection } from "../../../client/src/endpoint/http";
import { toOpenAIMessages } from "../../../client/src/lm/messages";
import { EndpointChatProvider } from "../../../client/src/lm/provider";
import type { GenerationStats } from "../../../client/src/endpoint/stats";
import { metric, postJson, startEndpoint, storageDir, until, WEATHER_TOOL, type EndpointProcess } from "../../helpers/endpoint";
import { assistant, PARTS, system, TextPart, ToolCallPart, ToolResultPart, user, type ResponsePart } from "./vscodeParts";

let endpoint: EndpointProcess;
let keyed: EndpointProcess;
const KEY = "test-key-123";

before(async () => {
  [endpoint, keyed] = await Promise.all([startEndpoint(), startEndpoint(["--api-key", KEY])]);
});
after(() => Promise.all([endpoint.stop(), keyed.stop()]));

function provider(connection: () => Connection | null) {
  const stats: GenerationStats[] = [];
  const log: string[] = [];
  const p = new EndpointChatProvider({ connection: async () => connection(), onStats: (s) => stats.push(s), log: (l) => log.push(l) });
  return { p, stats, log };
}

async function respond(
  p: EndpointChatProvider,
  messages: Parameters<EndpointChatProvider["respond"]>[1],
  options: Parameters<EndpointChatProvider["respond"]>[2],
  signal = new AbortController().signal,
) {
  const parts: ResponsePart[] = [];
  await p.respond("demo-random", messages, options, PARTS, (x) => parts.push(x), signal);
  return parts;
}

const WEATHER = {
  name: WEATHER_TOOL.function.name,
  description: WEATHER_TOOL.function.description,
  inputSchema: WEATHER_TOOL.function.parameters,
};

describe("chat provider", () => {
  test("lists the endpoint's model while it is healthy, with its context", async () => {
    const { p } = provider(() => ({ url: endpoint.url }));
    const [m, ...rest] = await p.models();
    assert.deepEqual(rest, []);
    assert.equal(m.id, "demo-random");
    assert.equal(m.name, "demo-random (demo, random weights)");
    assert.equal(m.detail, "demo, random weights");
    assert.equal(m.maxInputTokens + m.maxOutputTokens, 4096);
    assert.deepEqual(m.capabilities, { toolCalling: true, imageInput: false });
  });

  test("lists nothing, without an error, when there is no endpoint, it is unreachable, or its model failed to load", async () => {
    const bad = join(storageDir, "corrupt.gguf");
    writeFileSync(bad, "GGUF but not really");
    const broken = await startEndpoint(["--target", bad]);
    try {
      assert.equal((await fetch(`${broken.url}/health`)).status, 500);
      for (const c of [null, { url: "http://127.0.0.1:1" }, { url: broken.url }]) {
        const { p, log } = provider(() => c);
        assert.deepEqual(await p.models(), []);
        if (c) assert.equal(log.length, 1);
      }
    } finally {
      await broken.stop();
    }
  });

  test("text: streamed as text parts, and the generation's figures are reported", async () => {
    const { p, stats } = provider(() => ({ url: endpoint.url }));
    const parts = await respond(p, [system(new TextPart("Be brief.")), user(new TextPart("Tell me a story"))], {
      modelOptions: { max_tokens: 16, temperature: 0 },
    });
    assert.ok(parts.length > 0);
    assert.ok(parts.every((x) => x instanceof TextPart));
    assert.ok(parts.map((x) => (x as TextPart).value).join("").length > 0);
    assert.equal(stats.length, 1);
    assert.ok(stats[0].tokensPerSecond! > 0);
    assert.ok(stats[0].acceptance! >= 0 && stats[0].acceptance! <= 1, "the demo endpoint has a DFlash draft");
    assert.equal(stats[0].completionTokens, 16);
  });

  test("round trip: a tool conversation in VS Code parts reaches the template, and a forced call comes back as a tool call part", async () => {
    const { p } = provider(() => ({ url: endpoint.url }));
    const history = [
      user(new TextPart("Weather in Tokyo?")),
      assistant(new ToolCallPart("call_1", "get_weather", { city: "Tokyo" })),
      user(new ToolResultPart("call_1", [new TextPart("sunny")]), new TextPart("And in Paris?")),
    ];
    const parts = await respond(p, history, { tools: [WEATHER], toolMode: 2, modelOptions: { max_tokens: 200, seed: 1 } });
    const calls = parts.filter((x): x is ToolCallPart => x instanceof ToolCallPart);
    assert.ok(calls.length >= 1, JSON.stringify(parts));
    assert.equal(calls[0].name, "get_weather");
    assert.equal(typeof (calls[0].input as { city: unknown }).city, "string");
    assert.match(calls[0].callId, /^call_/);
    // the history made it into the prompt: it costs more tokens than the last question alone
    const { p: counter } = provider(() => ({ url: endpoint.url }));
    assert.ok((await counter.countTokens("demo-random", "And in Paris?")) < (await countChat(history)));
  });

  test("cancellation aborts the HTTP request: the endpoint stops generating", async () => {
    const { p } = provider(() => ({ url: endpoint.url }));
    // The abort must reach the endpoint while it still generates. Greedy decoding of the demo model runs to
    // max_tokens, but a loaded machine may let the endpoint finish before this process even sees the first
    // part; such an attempt proves nothing, so it is run again rather than failed or waited out on a clock.
    for (let attempt = 1; ; attempt++) {
      const before = await generations(endpoint.url);
      const controller = new AbortController();
      const parts: ResponsePart[] = [];
      const done = p.respond(
        "demo-random",
        [user(new TextPart("Write a long story"))],
        { modelOptions: { max_tokens: 3000, temperature: 0 } },
        PARTS,
        (x) => {
          parts.push(x);
          controller.abort();
        },
        controller.signal,
      );
      await assert.rejects(done, (e: Error) => e.name === "AbortError");
      assert.ok(parts.length >= 1);
      // the generation has ended once it is counted, by whatever finish
      await until(async () => (await generations(endpoint.url)).total === before.total + 1);
      const after = await generations(endpoint.url);
      if (after.aborted === before.aborted + 1) return;
      assert.ok(attempt < 5, `the endpoint finished before the abort reached it, ${attempt} times`);
    }
  });

  test("token counts come from the endpoint's tokenizer (count_tokens)", async () => {
    const { p } = provider(() => ({ url: endpoint.url }));
    const direct = await postJson(`${endpoint.url}/v1/messages/count_tokens`, {
      model: "m",
      messages: [{ role: "user", content: "hello there" }],
    });
    assert.equal(await p.countTokens("demo-random", "hello there"), direct.json.input_tokens);
    assert.ok((await p.countTokens("demo-random", assistant(new ToolCallPart("c", "get_weather", { city: "Tokyo" })))) > 5);
    assert.equal(await p.countTokens("demo-random", ""), 0);
  });

  test("a server without count_tokens (vLLM, llama-server): counts are estimated, and that is logged once", async () => {
    const server: Server = createServer((_req, res) => res.writeHead(404).end("not found"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const { p, log } = provider(() => ({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
      assert.equal(await p.countTokens("m", "12345678"), 2);
      assert.equal(await p.countTokens("m", "123456789"), 3);
      assert.equal(log.length, 1);
      assert.match(log[0], /no \/v1\/messages\/count_tokens: token counts are estimated/);
    } finally {
      server.close();
    }
  });

  test("no endpoint: a request says how to start one", async () => {
    const { p } = provider(() => null);
    await assert.rejects(respond(p, [user(new TextPart("hi"))], {}), /not running \(Chat Template: Start Endpoint\)/);
  });
});

describe("external mode: an endpoint that needs an API key", () => {
  test("with the key: the model is listed, answers and counts", async () => {
    const { p } = provider(() => ({ url: keyed.url, apiKey: KEY }));
    assert.equal((await p.models())[0].id, "demo-random");
    const parts = await respond(p, [user(new TextPart("hi"))], { modelOptions: { max_tokens: 4 } });
    assert.ok(parts.length > 0);
    assert.ok((await p.countTokens("demo-random", "hi")) > 0);
  });

  test("without it, or with a wrong one: nothing listed, and a request fails with the server's 401", async () => {
    for (const apiKey of [undefined, "wrong"]) {
      const { p, log } = provider(() => ({ url: keyed.url, apiKey }));
      assert.deepEqual(await p.models(), []);
      assert.match(log[0], /401/);
      await assert.rejects(respond(p, [user(new TextPart("hi"))], {}), /401 (missing|invalid) API key/);
    }
  });
});

/** The endpoint's OpenAI generations so far: all of them, and those that ended because the client left. */
async function generations(url: string): Promise<{ total: number; aborted: number }> {
  const lines = (await (await fetch(`${url}/metrics`)).text())
    .split("\n")
    .filter((l) => l.startsWith('cts_generations_total{api="openai"'));
  const total = lines.reduce((sum, l) => sum + Number(l.split(" ").at(-1)), 0);
  return { total, aborted: await metric(url, 'cts_generations_total{api="openai",finish="abort"}') };
}

/** The token count of a whole conversation, as the endpoint's template renders it. */
async function countChat(messages: { role: number; content: unknown[] }[]): Promise<number> {
  const r = await postJson(`${endpoint.url}/v1/chat/completions`, { model: "m", messages: toOpenAIMessages(messages), max_tokens: 1 });
  return r.json.usage.prompt_tokens;
}
