// The prompt cache against real clients: Claude Code's billing-header block is dropped, so two requests that differ
// only in it share their whole prompt; where a prompt does leave the cache, the request log line, the debug line and
// /metrics say where and why.
import assert from "node:assert/strict";
import { Agent, request } from "node:http";
import { after, before, describe, test } from "node:test";
import { WEATHER_TOOL, metric, postJson, startEndpoint, type EndpointProcess } from "../../helpers/endpoint";

const SYSTEM = Array.from({ length: 40 }, (_, i) => `Rule ${i}: keep edits small, run the tests, and explain each change.`).join("\n");
const billing = (cch: string) => ({
  type: "text",
  text: `x-anthropic-billing-header: cc_version=2.1.332.e5f; cc_entrypoint=cli; cch=${cch};`,
});

/** Claude Code's shape: the billing block first in `system`, its cch changing per request. */
const claudeCodeBody = (cch: string) => ({
  model: "m",
  max_tokens: 4,
  temperature: 0,
  system: [billing(cch), { type: "text", text: SYSTEM }],
  messages: [{ role: "user", content: "Fix the failing test." }],
});

/** POSTs on one kept-alive connection, as a client that reuses its socket. */
function post(agent: Agent, url: string, body: unknown): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/messages`, { method: "POST", agent, headers: { "content-type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve(JSON.parse(text)));
    });
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const reusedShare = (r: any) => r.usage.cache_read_input_tokens / (r.usage.cache_read_input_tokens + r.usage.input_tokens);
const count = (text: string, re: RegExp) => text.split("\n").filter((l) => re.test(l)).length;

let dropping: EndpointProcess;
let keeping: EndpointProcess;
before(async () => {
  [dropping, keeping] = await Promise.all([startEndpoint(["--verbose"]), startEndpoint(["--keep-client-billing-header", "--verbose"])]);
});
after(() => Promise.all([dropping.stop(), keeping.stop()]));

describe("Claude Code's billing header", () => {
  test("two requests identical but for the billing block reuse >= 99 % of the prompt; counted, said once per connection", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    await post(agent, dropping.url, claudeCodeBody("1a2b3"));
    const second = await post(agent, dropping.url, claudeCodeBody("9f8e7"));
    agent.destroy();
    assert.ok(reusedShare(second) >= 0.99, `reused ${JSON.stringify(second.usage)}`);
    assert.equal(await metric(dropping.url, "cts_client_billing_header_dropped_total"), 2);
    await dropping.waitForStderr(/POST \/v1\/messages 200[^\n]*\n[^]*POST \/v1\/messages 200/);
    assert.equal(count(dropping.stderr, /dropped the client's x-anthropic-billing-header: system block/), 1);
  });

  test("kept (--keep-client-billing-header): the prompt leaves the cache at the block, client_prefix_changed", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    await post(agent, keeping.url, claudeCodeBody("1a2b3"));
    const second = await post(agent, keeping.url, claudeCodeBody("9f8e7"));
    agent.destroy();
    assert.ok(reusedShare(second) < 0.1, `reused ${JSON.stringify(second.usage)}`);
    await keeping.waitForStderr(/: client_prefix_changed/);
    assert.match(
      keeping.stderr,
      /POST \/v1\/messages 200 in [^\n]*prompt cache: reused \d+ of the \d+ tokens of the longest cached prompt, diverged at token \d+ \(message 0, system, content\[0\]\): client_prefix_changed\n/,
    );
    // the debug line: the rendered text either side
    assert.match(keeping.stderr, /prompt cache: diverged at character \d+: "[^"]*cch=" then cached "1a2b3;[^"]*", new "9f8e7;/);
    assert.equal(await metric(keeping.url, 'cts_prompt_cache_divergence_total{cause="client_prefix_changed"}'), 1);
    assert.equal(await metric(keeping.url, "cts_client_billing_header_dropped_total"), 0);
  });
});

describe("where the cache was lost", () => {
  test("a template that drops earlier reasoning (Qwen3's): earlier_turn_rerendered at that message's reasoning", async () => {
    const turn = [
      { role: "system", content: SYSTEM },
      { role: "user", content: "Weather in Paris?" },
      {
        role: "assistant",
        reasoning_content: "The user wants the weather; I will call the tool.",
        content: "",
        tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
      },
      { role: "tool", tool_call_id: "call_1", content: "sunny" },
    ];
    const body = (messages: object[]) => ({ model: "m", max_tokens: 4, temperature: 0, tools: [WEATHER_TOOL], messages });
    const first = await postJson(`${dropping.url}/v1/chat/completions`, body(turn));
    assert.equal(first.status, 200, JSON.stringify(first.json));
    const next = [...turn, { role: "assistant", content: "It is sunny." }, { role: "user", content: "And Rome?" }];
    const second = await postJson(`${dropping.url}/v1/chat/completions`, body(next));
    assert.equal(second.status, 200, JSON.stringify(second.json));
    await dropping.waitForStderr(/: earlier_turn_rerendered/);
    assert.match(
      dropping.stderr,
      /POST \/v1\/chat\/completions 200 in [^\n]*prompt cache: reused \d+ of the \d+ tokens of the longest cached prompt, diverged at token \d+ \(message 2, assistant, reasoning\): earlier_turn_rerendered\n/,
    );
    assert.equal(await metric(dropping.url, 'cts_prompt_cache_divergence_total{cause="earlier_turn_rerendered"}'), 1);
    const metrics = await (await fetch(`${dropping.url}/metrics`)).text();
    assert.match(metrics, /\n# TYPE cts_prompt_cache_reused_ratio histogram\n/);
    assert.match(metrics, /\ncts_prompt_cache_reused_ratio_count 4\n/);
  });
});
