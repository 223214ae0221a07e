// One stderr line per request: route, status, time, the generation's tokens and DFlash acceptance, an error's
// message as the client got it; the pollers' /health and /metrics are left out.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { requestLine } from "../../../native/endpoint/http/requestLog";
import { postJson, startEndpoint, type EndpointProcess } from "../../helpers/endpoint";

let endpoint: EndpointProcess;
before(async () => {
  endpoint = await startEndpoint(["--context", "256"]);
});
after(() => endpoint.stop());

const LINE = /^chat-template serve: (\S+) (\S+) (\d+) in (\d+ ms|\d+\.\d s)(?:: (.*))?$/;
/** The logged lines of requests to a route, parsed. */
const lines = (path: string) =>
  endpoint.stderr
    .split("\n")
    .map((l) => LINE.exec(l))
    .filter((m) => m && m[2] === path)
    .map((m) => ({ method: m![1], status: Number(m![3]), details: m![5] ?? "" }));

test("a generation: its prompt, cached and generated tokens, speed and DFlash acceptance", async () => {
  const r = await postJson(`${endpoint.url}/v1/chat/completions`, {
    model: "m",
    messages: [{ role: "user", content: "hi" }],
    max_tokens: 8,
  });
  assert.equal(r.status, 200);
  await endpoint.waitForStderr(/POST \/v1\/chat\/completions 200/);
  const [line] = lines("/v1/chat/completions");
  const u = r.json.usage;
  const drafted = r.headers.get("x-dflash-drafted");
  assert.match(
    line.details,
    new RegExp(
      `^prompt ${u.prompt_tokens} tokens \\(${u.prompt_tokens_details.cached_tokens} cached\\), ${u.completion_tokens} generated at \\d+\\.\\d tok/s, DFlash acceptance \\d+ % \\(\\d+/${drafted}\\)$`,
    ),
  );
});

test("a 4xx with the message the client got, in its API's words", async () => {
  const r = await postJson(`${endpoint.url}/v1/messages`, { model: "m", max_tokens: 300, messages: [{ role: "user", content: "hi" }] });
  assert.equal(r.status, 400);
  await endpoint.waitForStderr(/POST \/v1\/messages 400/);
  assert.deepEqual(lines("/v1/messages"), [{ method: "POST", status: 400, details: r.json.error.message }]);
  await fetch(`${endpoint.url}/nowhere`);
  await endpoint.waitForStderr(/GET \/nowhere 404/);
  assert.match(lines("/nowhere")[0].details, /^no route GET \/nowhere/);
});

test("a stream the client leaves says so", async () => {
  const controller = new AbortController();
  const res = await fetch(`${endpoint.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }], max_tokens: 200, stream: true, ignore_eos: true }),
    signal: controller.signal,
  });
  await res.body!.getReader().read();
  controller.abort();
  await endpoint.waitForStderr(/POST \/v1\/chat\/completions 200 in [^\n]*the client left before the end/);
});

test("routes without a generation log their time only; /health and /metrics are not logged", async () => {
  await fetch(`${endpoint.url}/health`);
  await fetch(`${endpoint.url}/metrics`);
  await fetch(`${endpoint.url}/v1/models`);
  await endpoint.waitForStderr(/GET \/v1\/models 200/);
  assert.deepEqual(lines("/v1/models"), [{ method: "GET", status: 200, details: "" }]);
  assert.deepEqual([lines("/health"), lines("/metrics")], [[], []]);
});

test("the line's shape: 499 for a client that left, seconds past one second", () => {
  const stats = {
    promptTokens: 40,
    cachedTokens: 30,
    generatedTokens: 0,
    tokensPerSecond: 0,
    speculative: true,
    drafted: 0,
    accepted: 0,
    acceptance: 0,
  };
  assert.equal(
    requestLine({ method: "POST", path: "/v1/messages", startedMs: 0, stats: stats as never, notes: [] }, 499, 1500),
    "POST /v1/messages 499 in 1.5 s: prompt 40 tokens (30 cached), 0 generated",
  );
  assert.equal(requestLine({ method: "GET", path: "/health", startedMs: 0, notes: [] }, 503, 1), null);
});
