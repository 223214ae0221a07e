// Every hostile request of the catalogue (test/helpers/hostileRequests.ts) through each API that takes its
// field: a 400 in that API's own error shape naming the field, refused before it takes the generation slot,
// so the next small request is answered; and a client that goes away mid-generation under the largest grammar
// the limits allow frees the slot for the next request.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { metric, postJson, startEndpoint, until, type EndpointProcess } from "../../helpers/endpoint";
import { bodyOf, HOSTILE_REQUESTS, ROUTES, type Api } from "../../helpers/hostileRequests";

let endpoint: EndpointProcess;
before(async () => {
  endpoint = await startEndpoint();
});
after(() => endpoint.stop());

async function nextSmallRequest(what: string): Promise<void> {
  assert.equal(endpoint.child.exitCode, null, `the endpoint exited after ${what}`);
  const r = await postJson(`${endpoint.url}/v1/chat/completions`, {
    model: "m",
    max_tokens: 2,
    messages: [{ role: "user", content: "hi" }],
  });
  assert.equal(r.status, 200, `after ${what}: ${JSON.stringify(r.json)}`);
}

function assertNamesField(api: Api, json: any, param: string, what: string): void {
  if (api === "messages") {
    assert.equal(json.type, "error", what);
    assert.equal(json.error.type, "invalid_request_error", what);
    assert.ok(json.error.message.startsWith(`${param}: `), `${what}: ${json.error.message}`);
  } else {
    assert.equal(json.error.type, "invalid_request_error", what);
    assert.equal(json.error.param, param, `${what}: ${json.error.message}`);
  }
}

describe("hostile requests", () => {
  for (const family of ["grammar", "schema", "sampler", "nesting"] as const) {
    test(`${family}: each is a 400 naming the field, and the next request is answered`, async (t) => {
      let cases = 0;
      let worst = { ms: 0, what: "" };
      for (const h of HOSTILE_REQUESTS.filter((r) => r.family === family)) {
        for (const [api, way] of Object.entries(h.ways) as [Api, { fields: string; param: string }][]) {
          const what = `${h.name} on ${ROUTES[api]}`;
          const started = performance.now();
          const r = await postJson(endpoint.url + ROUTES[api], bodyOf(api, way.fields));
          const ms = performance.now() - started;
          if (ms > worst.ms) worst = { ms, what };
          assert.equal(r.status, 400, `${what}: ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`);
          assertNamesField(api, r.json, way.param, what);
          await nextSmallRequest(what);
          cases++;
        }
      }
      t.diagnostic(`${family}: ${cases} cases, 0 failures; slowest refusal ${worst.ms.toFixed(0)} ms (${worst.what})`);
    });
  }

  test("a client that disconnects while a grammar of the most alternatives allowed is generating frees the slot", async () => {
    const aborted = await metric(endpoint.url, 'cts_generations_total{api="openai",finish="abort"}');
    const grammar = "root ::= (" + Array.from({ length: 1024 }, (_, i) => `"w${i}"`).join(" | ") + ")+";
    const controller = new AbortController();
    const res = await fetch(`${endpoint.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", max_tokens: 3000, stream: true, grammar, messages: [{ role: "user", content: "hi" }] }),
      signal: controller.signal,
    });
    assert.equal(res.status, 200);
    // the first chunk: the grammar is compiled and tokens are coming
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await nextSmallRequest("the disconnect");
    await until(async () => (await metric(endpoint.url, 'cts_generations_total{api="openai",finish="abort"}')) === aborted + 1);
  });

  test("a client that disconnects while a long prompt is prepared and decoded frees the slot", async () => {
    const controller = new AbortController();
    // a stream's headers are sent before the prompt is built: the disconnect comes during tokenizing or prefill
    const res = await fetch(`${endpoint.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", max_tokens: 8, stream: true, messages: [{ role: "user", content: "word ".repeat(600) }] }),
      signal: controller.signal,
    });
    assert.equal(res.status, 200);
    controller.abort();
    await nextSmallRequest("the disconnect");
  });
});
