// A web page in the user's browser must not be able to use the endpoint: foreign Origins are refused,
// JSON must be labelled as JSON (text/plain is what a page can send without a preflight), CORS headers
// go only to origins the user allowed, and a body is bounded by what the context can hold.
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, test } from "node:test";
import { parseServeArgs } from "../../../native/endpoint/config";
import { postJson, startEndpoint, type EndpointProcess } from "../../helpers/endpoint";

const chat = { model: "m", messages: [{ role: "user", content: "hi" }], max_tokens: 1 };
const ALLOWED = "http://localhost:3000";

describe("cross-site requests", () => {
  let endpoint: EndpointProcess;
  before(async () => {
    endpoint = await startEndpoint(["--context", "64", "--allowed-origins", `${ALLOWED}, https://app.example`]);
  });
  after(() => endpoint.stop());

  test("a foreign Origin is refused with 403 before the request runs, on every route", async () => {
    for (const origin of ["https://attacker.example", "null", "http://127.0.0.1:1"]) {
      const r = await postJson(`${endpoint.url}/v1/chat/completions`, chat, { origin });
      assert.equal(r.status, 403, origin);
      assert.match(r.json.error.message, /^Origin '.*' may not use this endpoint: start it with --allowed-origins/);
      assert.equal(r.headers.get("access-control-allow-origin"), null);
    }
    assert.equal((await fetch(`${endpoint.url}/v1/models`, { headers: { origin: "https://attacker.example" } })).status, 403);
    assert.equal((await fetch(`${endpoint.url}/metrics`)).headers.get("access-control-allow-origin"), null);
  });

  test("the endpoint's own origin and clients without an Origin are served, with no CORS headers", async () => {
    const own = await postJson(`${endpoint.url}/v1/chat/completions`, chat, { origin: endpoint.url });
    assert.equal(own.status, 200);
    assert.equal(own.headers.get("access-control-allow-origin"), null);
    assert.equal((await postJson(`${endpoint.url}/v1/chat/completions`, chat)).status, 200);
  });

  test("an allowed origin gets CORS headers and its preflight is answered", async () => {
    const r = await postJson(`${endpoint.url}/v1/chat/completions`, chat, { origin: ALLOWED });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("access-control-allow-origin"), ALLOWED);
    const pre = await fetch(`${endpoint.url}/v1/chat/completions`, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "POST" },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get("access-control-allow-origin"), "https://app.example");
    assert.match(pre.headers.get("access-control-allow-headers") ?? "", /content-type/);
  });

  test("a JSON body without Content-Type: application/json is refused with 415", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", undefined]) {
      const headers: Record<string, string> = type === undefined ? {} : { "content-type": type };
      const r = await fetch(`${endpoint.url}/chat/parse`, {
        method: "POST",
        headers,
        body: type === undefined ? undefined : JSON.stringify(chat),
      });
      assert.equal(r.status, 415, String(type));
      assert.match(((await r.json()) as any).error.message, /must be sent with 'Content-Type: application\/json'/);
    }
    assert.equal(
      (await postJson(`${endpoint.url}/v1/chat/completions`, chat, { "content-type": "application/json; charset=utf-8" })).status,
      200,
    );
  });

  test("a body over a 64-token context's worth of bytes is refused with 413 naming the limit, announced or streamed", async () => {
    const limit = (1 << 20) + 64 * 64;
    const big = JSON.stringify({ ...chat, messages: [{ role: "user", content: "x".repeat(limit) }] });
    const announced = await postJson(`${endpoint.url}/v1/chat/completions`, big);
    assert.equal(announced.status, 413);
    assert.equal(announced.json.error.message, `request body exceeds the limit of ${limit} bytes (1 MiB + 64 bytes per token of context)`);
    assert.equal(await streamed(`${endpoint.url}/v1/chat/completions`, big), 413);
    assert.equal((await postJson(`${endpoint.url}/v1/chat/completions`, chat)).status, 200);
  });
});

test("--allowed-origins takes origins only", () => {
  assert.deepEqual(parseServeArgs(["--allowed-origins", "http://LOCALHOST:3000/,https://a.example"]).allowedOrigins, [
    "http://localhost:3000",
    "https://a.example",
  ]);
  assert.deepEqual(parseServeArgs([]).allowedOrigins, []);
  for (const bad of ["*", "http://a.example/path", "file:///x"]) {
    assert.throws(() => parseServeArgs(["--allowed-origins", bad]), /--allowed-origins takes comma-separated origins/);
  }
});

/** Chunked, with no Content-Length: the limit is counted as the body arrives. */
function streamed(url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on("error", (e: NodeJS.ErrnoException) => (e.code === "EPIPE" || e.code === "ECONNRESET" ? undefined : reject(e)));
    for (let i = 0; i < body.length; i += 65536) req.write(body.slice(i, i + 65536));
    req.end();
  });
}
