// The preview's model output pane: its messages (checked on both sides), the controller's part, and the
// markup the webview shows.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { PreviewHost } from "../../../client/src/preview/controller";
import { parseHostMessage, parseWebviewMessage, type ModelOutputView } from "../../../client/src/preview/protocol";
import { modelOutputHtml } from "../../../client/src/preview/webview/modelOutput";
import { recordedPreview } from "../../helpers/preview";

const VIEW: ModelOutputView = {
  mode: "completion",
  status: "done",
  model: "demo-random",
  raw: '<think>\nhmm\n</think>\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "<b>"}}\n</tool_call>',
  parsed: { content: "", reasoning: "hmm\n", toolCalls: [{ name: "get_weather", arguments: '{"city": "<b>"}' }] },
  error: null,
  finishReason: "stop",
  tokensPerSecond: 301.26,
  acceptance: 0.5,
  note: "t.jinja, scenario tools-offered",
};

function controller(host: Partial<PreviewHost> = {}) {
  const { controller: c, posted, send } = recordedPreview({ host });
  return { c, posted, send };
}

describe("model output messages", () => {
  test("runModel takes completion or chat; stopModel; modelOutput needs a view", () => {
    assert.deepEqual(parseWebviewMessage({ type: "runModel", mode: "chat" }), { ok: true, message: { type: "runModel", mode: "chat" } });
    assert.equal(parseWebviewMessage({ type: "runModel", mode: "raw" }).ok, false);
    assert.equal(parseWebviewMessage({ type: "stopModel" }).ok, true);
    assert.equal(parseHostMessage({ type: "modelOutput", output: VIEW }).ok, true);
    assert.deepEqual(parseHostMessage({ type: "modelOutput", output: { mode: "completion" } }), {
      ok: false,
      reason: "modelOutput: bad or missing 'output'",
    });
  });

  test("the controller posts the pane, posts it again when the webview reloads, and passes its buttons on", () => {
    const calls: string[] = [];
    const { c, posted, send } = controller({ runModel: (mode) => calls.push(mode), stopModel: () => calls.push("stop") });
    c.showModelOutput(VIEW);
    assert.deepEqual(posted.at(-1), { type: "modelOutput", output: VIEW });
    posted.length = 0;
    send({ type: "ready" });
    assert.deepEqual(
      posted.filter((m) => m.type === "modelOutput"),
      [{ type: "modelOutput", output: VIEW }],
    );
    send({ type: "runModel", mode: "completion" });
    send({ type: "runModel", mode: "chat" });
    send({ type: "stopModel" });
    assert.deepEqual(calls, ["completion", "chat", "stop"]);
    c.dispose();
  });

  test("without a model output, a reload posts none; a host without the hooks ignores the buttons", () => {
    const { c, posted, send } = controller();
    send({ type: "ready" });
    send({ type: "runModel", mode: "chat" });
    assert.ok(!posted.some((m) => m.type === "modelOutput"));
    assert.equal(c.modelInput(), null, "no template shown yet");
    c.dispose();
  });
});

describe("model output pane", () => {
  test("the raw output (escaped) beside what llama.cpp's parser lifted out, with the run's figures", () => {
    const html = modelOutputHtml(VIEW);
    assert.ok(html.includes(`<pre class="output" id="model-raw">&lt;think&gt;\nhmm\n&lt;/think&gt;`));
    assert.ok(
      html.includes(`<div class="parsed-field" data-field="reasoning"><span class="parsed-label">reasoning</span><pre>hmm\n</pre></div>`),
    );
    assert.ok(
      html.includes(
        `<div class="parsed-field" data-field="content"><span class="parsed-label">content</span><pre><span class="empty">(none)</span></pre></div>`,
      ),
    );
    assert.ok(
      html.includes(`<pre class="tool-call" data-tool-call="0"><b>get_weather</b>({&quot;city&quot;: &quot;&lt;b&gt;&quot;})</pre>`),
    );
    assert.ok(html.includes("finish: stop · 301.3 tokens/s · DFlash acceptance 50%"));
    assert.ok(html.includes("t.jinja, scenario tools-offered"));
    assert.ok(!html.includes('<b>"'), "model text never becomes markup");
  });

  test("while running: the run buttons are disabled and Stop is offered; the parse comes at the end", () => {
    const html = modelOutputHtml({ ...VIEW, status: "running", parsed: null, finishReason: null });
    assert.match(html, /data-action="run-model" data-mode="completion" disabled/);
    assert.match(html, /data-action="stop-model"/);
    assert.match(html, /parsed when the output is complete/);
    assert.doesNotMatch(modelOutputHtml(VIEW), /stop-model/);
  });

  test("chat mode has no raw text; an error is shown", () => {
    const html = modelOutputHtml({ ...VIEW, mode: "chat", raw: null, status: "error", error: "400 bad <request>" });
    assert.match(html, /The chat API returns the parsed message only/);
    assert.ok(html.includes(`<div class="error" id="model-error">400 bad &lt;request&gt;</div>`));
    assert.match(html, /<span class="badge">error<\/span>/);
  });
});
