// "Test Template Against Model" without VS Code: the preview's template and scenario → the prompt Jinja2
// renders → /v1/completions on a real endpoint (demo models) → raw output and llama.cpp's parse of it;
// and the same scenario as a chat request.
import assert from "node:assert/strict";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";
import { EndpointClient } from "../../../client/src/endpoint/http";
import { dialectEngines, REFERENCE_ENGINE } from "../../../client/src/preview/engines/engine";
import type { ModelOutputView } from "../../../client/src/preview/protocol";
import { chatRequestOf, renderPrompt } from "../../../client/src/testAgainstModel/prompt";
import { runModelTest, type ModelTest } from "../../../client/src/testAgainstModel/run";
import { postJson, startEndpoint, type EndpointProcess } from "../../helpers/endpoint";
import { HANG_GUARD_MS } from "../../helpers/hangGuard";
import { recordedPreview } from "../../helpers/preview";

const NOW = { year: 2026, month: 1, day: 15, hour: 9, minute: 30, second: 0, microsecond: 0 };
const QWEN3_TOKENS = { bosToken: "", eosToken: "<|im_end|>" };
/** The reference dialect in process: the extension's runs in a helper (isolatedRenders.test.ts tests that one). */
const REFERENCE = dialectEngines().find((e) => e.id === REFERENCE_ENGINE)!;

let endpoint: EndpointProcess;
before(async () => {
  endpoint = await startEndpoint();
});
after(() => endpoint.stop());

/** The preview controller showing `text` with `scenario` (a fake webview transport), as the command finds it. */
function preview(text: string, scenario: string) {
  const { controller: c, posted, send } = recordedPreview({ clock: () => NOW });
  c.showTemplate({ uri: "file:///t.jinja", name: "t.jinja", text, model: null });
  send({ type: "selectScenario", id: `built-in:${scenario}` });
  return { c, posted, send };
}

async function modelTest(mode: ModelTest["mode"], scenario: string, maxTokens = 24): Promise<ModelTest> {
  const { c } = preview(QWEN3_CHAT_TEMPLATE, scenario);
  const input = c.modelInput(QWEN3_TOKENS)!;
  c.dispose();
  const prompt = await renderPrompt(REFERENCE, input);
  assert.ok(prompt?.ok);
  return {
    mode,
    model: "demo-random",
    template: input.text,
    prompt: prompt.prompt,
    request: chatRequestOf(input.context),
    maxTokens,
    note: "test",
  };
}

describe("the prompt and the chat request of a scenario", () => {
  test("the prompt is the preview's Jinja2 render, with the served model's bos/eos where the scenario sets none", async () => {
    const { c } = preview("{{ bos_token }}{% for m in messages %}[{{ m.role }}] {{ m.content }}{% endfor %}{{ eos_token }}", "basic");
    const withModel = await renderPrompt(REFERENCE, c.modelInput(QWEN3_TOKENS)!);
    const withoutModel = await renderPrompt(REFERENCE, c.modelInput()!);
    c.dispose();
    assert.deepEqual(withModel, { ok: true, prompt: "[system] You are a helpful assistant.[user] Hello! What is 2+2?<|im_end|>" });
    assert.ok(withoutModel?.ok && withoutModel.prompt.startsWith("<|bos|>"), "the preview's defaults otherwise");
  });

  test("a template that fails to render says where", async () => {
    const { c } = preview("line one\n{{ messages[0].content | nosuchfilter }}", "basic");
    const r = await renderPrompt(REFERENCE, c.modelInput()!);
    c.dispose();
    assert.equal(r?.ok, false);
    assert.match(r && !r.ok ? r.message : "", /^the template does not render \(line 2, column \d+\): .*nosuchfilter/);
  });

  test("messages, tools and add_generation_prompt as they are; other variables as template kwargs; bos/eos left to the model", () => {
    const { c, send } = preview(QWEN3_CHAT_TEMPLATE, "thinking-disabled");
    send({ type: "setOption", key: "extraVariables", value: '{"date_string": "15 Jan 2026"}' });
    const r = chatRequestOf(c.modelInput()!.context);
    assert.deepEqual(Object.keys(r), ["messages", "add_generation_prompt", "chat_template_kwargs"]);
    assert.deepEqual(r.chat_template_kwargs, { enable_thinking: false, date_string: "15 Jan 2026" });
    assert.equal(r.add_generation_prompt, true);
    c.selectScenario("built-in:tools-offered");
    assert.equal(chatRequestOf(c.modelInput()!.context).tools!.length, 1);
    c.dispose();
  });
});

describe("a model test run", { timeout: HANG_GUARD_MS }, () => {
  const client = () => new EndpointClient({ url: endpoint.url });

  test("completion: the raw output streams in, then llama.cpp's parse of it (as /chat/parse reads it)", async () => {
    const t = await modelTest("completion", "tools-offered");
    assert.ok(t.prompt.includes("<tools>") && t.prompt.endsWith("<|im_start|>assistant\n"));
    const views: ModelOutputView[] = [];
    const final = await runModelTest(client(), t, new AbortController().signal, (v) => views.push(v));
    assert.equal(views[0].status, "running");
    assert.equal(views[0].raw, "");
    const raws = views.map((v) => v.raw!);
    assert.ok(
      raws.every((r, i) => i === 0 || r.startsWith(raws[i - 1])),
      "the raw text only grows",
    );
    assert.deepEqual(views.at(-1), final);
    assert.equal(final.status, "done");
    assert.ok(final.raw!.length > 0);
    assert.ok(final.finishReason === "length" || final.finishReason === "stop");
    assert.ok(final.tokensPerSecond! > 0);
    const direct = await postJson(`${endpoint.url}/chat/parse`, {
      ...t.request,
      text: final.raw,
      chat_template: t.template,
      partial: final.finishReason === "length",
    });
    // the random demo model's unseeded text (tools offered) now and then holds a call that does not parse: then
    // the run says so in the parser's own words, and shows the raw text alone
    if (direct.status !== 200) {
      assert.equal(final.parsed, null);
      assert.ok(final.error?.startsWith(`llama.cpp's parser: `) && final.error.includes(direct.json.error.message), final.error ?? "");
      return;
    }
    assert.equal(final.error, null);
    assert.deepEqual(final.parsed, {
      content: direct.json.content,
      reasoning: direct.json.reasoning_content,
      toolCalls: direct.json.tool_calls.map((c: any) => ({ name: c.function.name, arguments: c.function.arguments })),
    });
  });

  test("chat: the served template renders the scenario; the parsed message streams, there is no raw text", async () => {
    const views: ModelOutputView[] = [];
    const final = await runModelTest(client(), await modelTest("chat", "multi-turn", 16), new AbortController().signal, (v) =>
      views.push(v),
    );
    assert.equal(final.status, "done", final.error ?? "");
    assert.equal(final.raw, null);
    assert.ok(final.parsed!.content.length + final.parsed!.reasoning.length > 0);
    assert.ok(views.length > 2);
  });

  test("an error from the endpoint ends the run with its message", async () => {
    // a prompt that alone overflows the context (a max_tokens past it is clamped, as llama-server does)
    const t = await modelTest("completion", "basic");
    const final = await runModelTest(client(), { ...t, prompt: t.prompt.repeat(2000) }, new AbortController().signal, () => {});
    assert.equal(final.status, "error");
    assert.match(final.error!, /400 This model's maximum context length is \d+ tokens, however you requested \d+ tokens/);
  });

  test("stopping ends the run as cancelled, keeping what came", async () => {
    const controller = new AbortController();
    const final = await runModelTest(client(), await modelTest("completion", "basic", 3000), controller.signal, (v) => {
      if (v.raw) controller.abort();
    });
    assert.equal(final.status, "cancelled");
    assert.equal(final.error, null);
    assert.ok(final.raw!.length > 0);
  });

  test("a server without /chat/parse (an external one): the raw output, and a note instead of the parse", async () => {
    // forwards everything to the real endpoint except the parse route, as vLLM or llama-server would lack it
    const proxy: Server = createServer((req, res) => {
      if (req.url === "/chat/parse")
        return void res.writeHead(404, { "content-type": "application/json" }).end('{"error": {"message": "Not Found"}}');
      const upstream = request(endpoint.url + req.url, { method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode!, r.headers);
        r.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    try {
      const final = await runModelTest(
        new EndpointClient({ url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` }),
        await modelTest("completion", "basic", 8),
        new AbortController().signal,
        () => {},
      );
      assert.equal(final.status, "done");
      assert.ok(final.raw!.length > 0);
      assert.equal(final.parsed, null);
      assert.match(final.error!, /no \/chat\/parse/);
    } finally {
      proxy.close();
    }
  });
});
