// A bounded load: 200 requests over both APIs, 8 at a time, against a wait list of 4. Every answer is a
// 200 or a 429, streams are complete, and the endpoint's memory does not grow with the requests served.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { metric, startEndpoint, type EndpointProcess } from "../../helpers/endpoint";

let endpoint: EndpointProcess;
before(async () => {
  endpoint = await startEndpoint(["--queue", "4"]);
});
after(() => endpoint.stop());

const user = (i: number) => [{ role: "user", content: `Request number ${i}: say something.` }];
const REQUESTS: ((i: number) => [string, object])[] = [
  (i) => ["/v1/chat/completions", { model: "m", messages: user(i), max_tokens: 8 }],
  (i) => ["/v1/chat/completions", { model: "m", messages: user(i), max_tokens: 8, stream: true, stream_options: { include_usage: true } }],
  (i) => ["/v1/messages", { model: "m", messages: user(i), max_tokens: 8 }],
  (i) => ["/v1/messages", { model: "m", messages: user(i), max_tokens: 8, stream: true }],
  (i) => ["/v1/completions", { model: "m", prompt: `Once upon a time ${i}`, max_tokens: 8 }],
  (i) => ["/v1/messages/count_tokens", { model: "m", messages: user(i) }],
];

/** Sends request i and returns its status, after checking that a 200 is a complete answer. */
async function send(i: number): Promise<number> {
  const [path, body] = REQUESTS[i % REQUESTS.length](i);
  const res = await fetch(endpoint.url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) return res.status;
  if ((body as { stream?: boolean }).stream)
    assert.ok(text.trimEnd().endsWith(path === "/v1/messages" ? 'data: {"type":"message_stop"}' : "data: [DONE]"), text);
  else JSON.parse(text);
  return res.status;
}

async function run(total: number, concurrency: number): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const status = await send(next++);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  return statuses;
}

test("200 requests, 8 concurrent: only 200s and 429s, and no memory growth", async () => {
  // warm up allocator pools and caches before the baseline
  await run(40, 8);
  const before = await metric(endpoint.url, "process_resident_memory_bytes");
  const statuses = await run(200, 8);
  const after = await metric(endpoint.url, "process_resident_memory_bytes");
  const growth = (after - before) / 2 ** 20;
  console.log(
    `load: ${JSON.stringify(Object.fromEntries(statuses))}; RSS ${(before / 2 ** 20).toFixed(1)} MiB -> ${(after / 2 ** 20).toFixed(1)} MiB (${growth.toFixed(1)} MiB)`,
  );
  assert.deepEqual(
    [...statuses.keys()].filter((s) => s !== 200 && s !== 429),
    [],
  );
  assert.ok((statuses.get(200) ?? 0) > 100);
  // generous for allocator noise; a leak of a response or a prompt's buffers (a quarter MiB a request) would pass it
  assert.ok(growth < 48, `RSS grew by ${growth.toFixed(1)} MiB`);
  assert.equal(await metric(endpoint.url, "cts_queue_waiting"), 0);
  assert.equal((await fetch(`${endpoint.url}/health`)).status, 200);
});
