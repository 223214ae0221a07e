// What Claude Code (2.1.197) sends, through the official @anthropic-ai/sdk's beta client: HEAD / first, then
// /v1/messages?beta=true with its anthropic-beta list, a system reminder inside `messages`, thinking "adaptive",
// context_management, output_config, metadata and cache_control. All of it is accepted.
import Anthropic from "@anthropic-ai/sdk";
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { postJson, startEndpoint, type EndpointProcess } from "../../helpers/endpoint";

let endpoint: EndpointProcess;
let client: Anthropic;
before(async () => {
  endpoint = await startEndpoint();
  client = new Anthropic({ baseURL: endpoint.url, apiKey: "dummy", maxRetries: 0 });
});
after(() => endpoint.stop());

// its beta list, as captured from `claude -p` (--model demo-random)
const BETAS = [
  "claude-code-20250219",
  "interleaved-thinking-2025-05-14",
  "thinking-token-count-2026-05-13",
  "context-management-2025-06-27",
  "prompt-caching-scope-2026-01-05",
  "mid-conversation-system-2026-04-07",
  "effort-2025-11-24",
];
const reminder = { role: "system", content: "Available agent types for the Agent tool: Explore, Plan." };
const user = { role: "user", content: [{ type: "text", text: "say hi", cache_control: { type: "ephemeral" } }] };

function claudeCodeRequest(messages: object[], thinking: object = { type: "adaptive" }) {
  return {
    model: "demo-random",
    max_tokens: 8,
    metadata: { user_id: JSON.stringify({ device_id: "d", account_uuid: "", session_id: "s" }) },
    system: [
      { type: "text", text: "x-anthropic-billing-header: cc_version=2.1.197.123; cc_entrypoint=sdk-cli;" },
      { type: "text", text: "You are a Claude agent.", cache_control: { type: "ephemeral" } },
    ],
    messages,
    thinking,
    context_management: { edits: [{ type: "clear_thinking_20251015", keep: "all" }] },
    output_config: { effort: "high" },
    betas: BETAS,
  } as unknown as Anthropic.Beta.MessageCreateParamsNonStreaming;
}

test("HEAD / and GET / answer 200 (Claude Code checks the endpoint is there before its first request)", async () => {
  const head = await fetch(`${endpoint.url}/`, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), "");
  const get = await fetch(`${endpoint.url}/`);
  assert.equal(get.status, 200);
  assert.equal((await get.json()).model, "demo-random");
  // HEAD is GET without the body on every GET route
  assert.equal((await fetch(`${endpoint.url}/v1/models`, { method: "HEAD" })).status, 200);
  assert.equal((await fetch(`${endpoint.url}/v1/messages`, { method: "HEAD" })).headers.get("allow"), "POST");
});

test("its first request: a system message inside messages, betas, adaptive thinking — streamed and not", async () => {
  const body = claudeCodeRequest([user, reminder]);
  const whole = await client.beta.messages.create(body);
  assert.equal(whole.type, "message");
  const streamed = await client.beta.messages.stream(body).finalMessage();
  assert.ok(streamed.usage.output_tokens >= 1);
  // the reminder is a system turn of the prompt (Qwen3's template renders them anywhere)
  const { prompt } = await postJson(`${endpoint.url}/v1/messages/apply-template`, body).then((r) => r.json);
  assert.match(
    prompt,
    /<\|im_start\|>user\n[^]*say hi<\|im_end\|>\n<\|im_start\|>system\nAvailable agent types for the Agent tool: Explore, Plan\.<\|im_end\|>\n/,
  );
  const without = await client.beta.messages.countTokens({ ...body, messages: [user] } as never);
  const withIt = await client.beta.messages.countTokens(body as never);
  assert.ok(withIt.input_tokens > without.input_tokens);
});

test("thinking: adaptive is the template's own default (Qwen3 thinks), disabled closes the think block", async () => {
  const count = async (thinking: object) =>
    (await client.beta.messages.countTokens(claudeCodeRequest([user], thinking) as never)).input_tokens;
  const [adaptive, enabled, disabled] = [
    await count({ type: "adaptive" }),
    await count({ type: "enabled", budget_tokens: 1024 }),
    await count({ type: "disabled" }),
  ];
  assert.equal(adaptive, enabled);
  // Qwen3's generation prompt gets an empty <think>\n\n</think> when enable_thinking is false
  assert.ok(disabled > adaptive);
});
