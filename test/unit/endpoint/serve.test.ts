// `chat-template serve`: the stdout lines the extension host reads, /health, /metrics, the demo warning,
// shutdown, and what happens when the model cannot be loaded.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { AddressInfo } from "node:net";
import { parseServeArgs } from "../../../native/endpoint/config";
import { Metrics } from "../../../native/endpoint/llama/metrics";
import { ModelHost } from "../../../native/endpoint/llama/model";
import { PromptHistory } from "../../../native/endpoint/chat/promptHistory";
import { GenerationQueue } from "../../../native/endpoint/llama/queue";
import { createEndpointServer } from "../../../native/endpoint/http/server";
import { EndpointClient } from "../../../client/src/endpoint/http";
import { endpointStatistics, parsePrometheus } from "../../../client/src/endpoint/statisticsModel";
import { postJson, spawnEndpoint, startEndpoint, storageDir, type EndpointProcess } from "../../helpers/endpoint";
import { HANG_GUARD_MS } from "../../helpers/hangGuard";

describe("chat-template serve --port 0", () => {
  let endpoint: EndpointProcess;
  before(async () => {
    endpoint = await startEndpoint([], { viaCli: true });
  });
  after(() => endpoint.stop());

  test("stdout: a listening line with the real port, then a ready line; nothing else", async () => {
    const [listening, ready, ...rest] = endpoint.events;
    assert.deepEqual(Object.keys(listening), ["event", "url", "host", "port", "pid", "model", "demo"]);
    assert.equal(listening.event, "listening");
    assert.equal(listening.host, "127.0.0.1");
    assert.ok((listening.port as number) > 0);
    assert.equal(listening.url, `http://127.0.0.1:${listening.port}`);
    assert.equal(listening.pid, endpoint.pid);
    assert.equal(listening.demo, true);
    assert.deepEqual(ready, {
      event: "ready",
      url: listening.url,
      model: "demo-random",
      demo: true,
      backend: "cpu",
      contextSize: 4096,
      draft: "random test draft",
    });
    assert.deepEqual(rest, []);
  });

  test("stderr says loudly that the demo models have random weights", () => {
    assert.match(endpoint.stderr, /\*+\n\* No --target given: serving the DEMO models\. +\*\n\* demo models with random weights/);
  });

  test("GET /health: ready, with the model, backend, template and queue", async () => {
    const r = await fetch(`${endpoint.url}/health`);
    assert.equal(r.status, 200);
    const h = (await r.json()) as any;
    assert.equal(h.status, "ready");
    assert.equal(h.model, "demo-random");
    assert.equal(h.demo, true);
    assert.equal(h.backend.kind, "cpu");
    assert.equal(h.context_size, 4096);
    assert.deepEqual(h.template, { source: "gguf", path: null, error: null, loads: 0 });
    assert.deepEqual(h.queue, { active: 0, waiting: 0, max_waiting: 16 });
  });

  test("GET /metrics: requests, tokens, tokens/s and DFlash acceptance in Prometheus text", async () => {
    const body = { model: "m", messages: [{ role: "user", content: "hi" }], max_tokens: 4, temperature: 0 };
    const r = await postJson(`${endpoint.url}/v1/chat/completions`, body);
    const res = await fetch(`${endpoint.url}/metrics`);
    assert.equal(res.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    const text = await res.text();
    assert.match(text, /^# HELP cts_requests_total .+\n# TYPE cts_requests_total counter\n/);
    assert.match(text, /\ncts_requests_total\{route="\/v1\/chat\/completions",status="200"\} 1\n/);
    assert.match(text, new RegExp(`\\ncts_generated_tokens_total ${r.json.usage.completion_tokens}\\n`));
    assert.match(text, new RegExp(`\\ncts_prompt_tokens_total ${r.json.usage.prompt_tokens}\\n`));
    assert.match(text, new RegExp(`\\ncts_dflash_drafted_tokens_total ${r.headers.get("x-dflash-drafted")}\\n`));
    assert.match(text, /\ncts_dflash_acceptance 0(\.\d+)?\n/);
    assert.match(text, /\ncts_tokens_per_second \d+(\.\d+)?(e[-+]\d+)?\n/);
    assert.match(text, /\ncts_generations_total\{api="openai",finish="(stop|length)"\} 1\n/);
    assert.match(text, /\ncts_model_ready 1\n/);
    assert.match(text, /\nprocess_resident_memory_bytes \d+\n/);
  });

  test("the demo draft is below break-even: one warning event with the context length, and the controller's figures in the response", async () => {
    const body = { model: "m", messages: [{ role: "user", content: "hi" }], max_tokens: 48, temperature: 0, ignore_eos: true };
    const first = await postJson(`${endpoint.url}/v1/chat/completions`, body);
    await postJson(`${endpoint.url}/v1/chat/completions`, body);
    const w = await endpoint.waitFor((e) => e.event === "warning");
    assert.equal(w.kind, "dflash_below_break_even");
    assert.ok((w.breakEven as number) > 0 && (w.breakEven as number) < 1);
    assert.match(w.message as string, /^DFlash is below break-even at \d+ tokens of context/);
    assert.equal(endpoint.events.filter((e) => e.event === "warning").length, 1, "once per run");
    assert.deepEqual(Object.keys(first.json.timings.dflash).slice(-6), [
      "adaptive",
      "draft_length",
      "draft_lengths",
      "probes",
      "break_even",
      "by_context",
    ]);
    assert.equal(first.json.timings.dflash.by_context[0].context, "<4k");
  });

  test("the editor's Endpoint Statistics view reads this /metrics: tokens/s of plain steps and of drafting steps by context", async () => {
    const text = await new EndpointClient({ url: endpoint.url }).text("/metrics");
    const s = endpointStatistics(parsePrometheus(text));
    assert.equal(s.hasContextFigures, true);
    const [short] = s.buckets;
    assert.equal(short.context, "<4k");
    // the demo draft is below break-even: the controller has left steps plain, after drafting to measure
    assert.ok(short.plainSteps > 0 && short.plainTokensPerSecond! > 0, JSON.stringify(short));
    assert.ok(short.steps > 0 && short.dflashTokensPerSecond! > 0, JSON.stringify(short));
    assert.ok(s.draftLengths[0] > 0);
  });

  test("SIGTERM shuts it down with status 0", async () => {
    assert.equal(await endpoint.stop(), 0);
    assert.match(endpoint.stderr, /shutting down\n$/);
  });
});

describe("--exit-on-stdin-close", { timeout: HANG_GUARD_MS }, () => {
  test("the endpoint stops when its stdin ends (its parent died or let go)", async () => {
    const p = await startEndpoint(["--exit-on-stdin-close"], { stdin: true });
    p.child.stdin!.end();
    assert.equal(await p.exited, 0);
    assert.match(p.stderr, /shutting down\n$/);
  });

  test("a signal still stops it while stdin is open", async () => {
    const p = await startEndpoint(["--exit-on-stdin-close"], { stdin: true });
    assert.equal(await p.stop(), 0);
  });
});

describe("models that cannot be served", () => {
  test("a missing file is an error before anything binds", async () => {
    const p = spawnEndpoint(["--port", "0", "--target", join(storageDir, "missing.gguf")]);
    assert.equal(await p.exited, 1);
    assert.match(p.stderr, /model file not found: .*missing\.gguf/);
    assert.deepEqual(p.events, []);
  });

  test("a corrupt file: an error line, /health says error, requests get 500 with the reason", async () => {
    const bad = join(storageDir, "corrupt.gguf");
    writeFileSync(bad, "GGUF but not really");
    const p = await startEndpoint(["--target", bad, "--model-name", "broken"]);
    try {
      const error = p.events.find((e) => e.event === "error")!;
      assert.ok(error.message);
      const h = await fetch(`${p.url}/health`);
      assert.equal(h.status, 500);
      assert.deepEqual(await h.json(), { status: "error", error: error.message, model: "broken" });
      const r = await postJson(`${p.url}/v1/messages`, { model: "m", max_tokens: 1, messages: [{ role: "user", content: "hi" }] });
      assert.equal(r.status, 500);
      assert.equal(r.json.error.type, "api_error");
      assert.equal(r.json.error.message, `the model failed to load: ${error.message}`);
    } finally {
      await p.stop();
    }
  });
});

test("while loading, /health reports the progress and the API routes answer 503", async () => {
  // in-process, with a model that is never loaded: the state a request finds before the ready line
  const config = parseServeArgs([]);
  const model = new ModelHost({ target: "never-loaded.gguf" }, config);
  model.status = { state: "loading", stage: "draft", progress: 0.75 };
  const server = createEndpointServer({
    config,
    model,
    queue: new GenerationQueue(1),
    metrics: new Metrics(),
    promptHistory: new PromptHistory(),
    log: () => {},
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const h = await fetch(`${url}/health`);
    assert.equal(h.status, 503);
    assert.deepEqual(await h.json(), { status: "loading", stage: "draft", progress: 0.75, model: "never-loaded" });
    const chat = await postJson(`${url}/v1/chat/completions`, { model: "m", messages: [{ role: "user", content: "hi" }] });
    assert.equal(chat.status, 503);
    assert.deepEqual(chat.json.error, {
      message: "the model is loading (75%); retry when GET /health says ready",
      type: "unavailable_error",
      param: null,
      code: null,
    });
    const messages = await postJson(`${url}/v1/messages`, { model: "m", max_tokens: 1, messages: [{ role: "user", content: "hi" }] });
    assert.equal(messages.json.error.type, "overloaded_error");
  } finally {
    server.close();
  }
});
