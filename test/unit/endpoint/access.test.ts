// Who may use the endpoint: loopback by default, other addresses only with an API key, and the key
// checked on every route in each API's envelope.
import Anthropic from "@anthropic-ai/sdk";
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, test } from "node:test";
import OpenAI from "openai";
import { API_KEY_ENV } from "../../../native/endpoint/config";
import { spawnEndpoint, startEndpoint, type EndpointProcess } from "../../helpers/endpoint";

const KEY = "sk-test-0123456789";
const hi = [{ role: "user" as const, content: "hi" }];

describe("with an API key", () => {
  let endpoint: EndpointProcess;
  before(async () => {
    endpoint = await startEndpoint(["--api-key", KEY]);
  });
  after(() => endpoint.stop());

  test("OpenAI: no key or a wrong key is a 401 in OpenAI's envelope; the right key works", async () => {
    const none = await fetch(`${endpoint.url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ model: "m", messages: hi }) });
    assert.equal(none.status, 401);
    assert.deepEqual(((await none.json()) as any).error, {
      message: "missing API key: send 'Authorization: Bearer KEY' or 'x-api-key: KEY'",
      type: "authentication_error",
      param: null,
      code: "invalid_api_key",
    });
    const wrong = new OpenAI({ baseURL: `${endpoint.url}/v1`, apiKey: "sk-wrong", maxRetries: 0 });
    await assert.rejects(wrong.chat.completions.create({ model: "m", messages: hi, max_tokens: 1 }), (e: unknown) => {
      assert.ok(e instanceof OpenAI.AuthenticationError);
      assert.equal((e.error as { code: string }).code, "invalid_api_key");
      return true;
    });
    const ok = new OpenAI({ baseURL: `${endpoint.url}/v1`, apiKey: KEY, maxRetries: 0 });
    assert.equal((await ok.chat.completions.create({ model: "m", messages: hi, max_tokens: 1 })).object, "chat.completion");
  });

  test("Anthropic: x-api-key is checked, with authentication_error", async () => {
    const wrong = new Anthropic({ baseURL: endpoint.url, apiKey: "sk-wrong", maxRetries: 0 });
    await assert.rejects(wrong.messages.create({ model: "m", max_tokens: 1, messages: hi }), (e: unknown) => {
      assert.ok(e instanceof Anthropic.AuthenticationError);
      assert.equal((e.error as { error: { type: string } }).error.type, "authentication_error");
      return true;
    });
    const ok = new Anthropic({ baseURL: endpoint.url, apiKey: KEY, maxRetries: 0 });
    assert.equal((await ok.messages.create({ model: "m", max_tokens: 1, messages: hi })).type, "message");
  });

  test("health and metrics need the key too", async () => {
    assert.equal((await fetch(`${endpoint.url}/health`)).status, 401);
    assert.equal((await fetch(`${endpoint.url}/metrics`)).status, 401);
    assert.equal((await fetch(`${endpoint.url}/health`, { headers: { authorization: `Bearer ${KEY}` } })).status, 200);
  });

  test("with a key, any Host header is accepted", async () => {
    assert.equal(await statusWithHost(endpoint.url, "models.example.com", { "x-api-key": KEY }), 200);
  });
});

test("without a key, a request naming another host is refused (DNS rebinding)", async () => {
  const endpoint = await startEndpoint();
  try {
    assert.equal(await statusWithHost(endpoint.url, "attacker.example:80"), 403);
    assert.equal(await statusWithHost(endpoint.url, "localhost:1234"), 200);
  } finally {
    await endpoint.stop();
  }
});

describe("binding", () => {
  test("a non-loopback address without a key is refused before anything binds", async () => {
    const p = spawnEndpoint(["--host", "0.0.0.0", "--port", "0"], { env: { [API_KEY_ENV]: "" } });
    assert.equal(await p.exited, 2);
    assert.match(p.stderr, /--host 0\.0\.0\.0 is not a loopback address: it needs an API key \(--api-key KEY or \$CHAT_TEMPLATE_API_KEY\)/);
    assert.deepEqual(p.events, []);
  });

  test("a non-loopback address with a key from the environment binds and requires it", async () => {
    const endpoint = await startEndpoint(["--host", "0.0.0.0"], { env: { [API_KEY_ENV]: KEY } });
    try {
      assert.equal(endpoint.events[0].host, "0.0.0.0");
      const port = endpoint.events[0].port as number;
      assert.equal((await fetch(`http://127.0.0.1:${port}/v1/models`)).status, 401);
      assert.equal((await fetch(`http://127.0.0.1:${port}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } })).status, 200);
    } finally {
      await endpoint.stop();
    }
  });
});

/** fetch does not let a caller set Host. */
function statusWithHost(url: string, host: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/models`, { headers: { host, ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on("error", reject);
    req.end();
  });
}
