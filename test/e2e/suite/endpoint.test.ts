// The bundled endpoint with the demo models (no model configured: a generated tiny pair with random weights):
// Start Endpoint brings it to ready in the status bar, its model shows up in vscode.lm and answers with text
// and with a forced tool call, and Stop Endpoint ends its process. The endpoint serves the template of the
// active chat template editor (chatTemplate.endpoint.templateSource "activeEditor", the default), so the
// suite opens Qwen3's, which the demo pair is shaped after, rather than whatever fixture another suite left.
import * as assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { suite, suiteSetup, suiteTeardown, test } from "mocha";
import * as vscode from "vscode";
import { click, elements, hasBrowser, screenshot, texts, waitForElements, waitForTexts } from "./helpers/driver";
import { poll } from "./helpers/wait";
import { extension, hasNativeEngine, installedPackage, openFixture, repoFile } from "./helpers/workspace";

const VENDOR = "chat-template-studio";
const DEMO_MODEL = "demo-random";

// An enum rather than a free string: the grammar ends the random model's arguments within a few tokens,
// where a string runs on for about a hundred (seconds on a small CPU).
const UNITS = ["celsius", "fahrenheit"];
const WEATHER_TOOL: vscode.LanguageModelChatTool = {
  name: "get_weather",
  description: "Current weather in Paris",
  inputSchema: { type: "object", properties: { unit: { type: "string", enum: UNITS } }, required: ["unit"] },
};

// The endpoint processes this extension host started (dist/endpoint.js, never run inside it).
function endpointProcesses(): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        // stat: "pid (comm) state ppid …"; comm may hold spaces, so read after its closing parenthesis
        const ppid = Number(
          readFileSync(`/proc/${pid}/stat`, "utf8")
            .replace(/^.*\) /s, "")
            .split(" ")[1],
        );
        return (
          ppid === process.pid &&
          readFileSync(`/proc/${pid}/cmdline`, "utf8")
            .split("\0")
            .some((a) => a.endsWith("dist/endpoint.js"))
        );
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

async function demoModel(): Promise<vscode.LanguageModelChat | undefined> {
  return (await vscode.lm.selectChatModels({ vendor: VENDOR })).find((m) => m.id === DEMO_MODEL);
}

async function collect(response: vscode.LanguageModelChatResponse): Promise<{ text: string; calls: vscode.LanguageModelToolCallPart[] }> {
  let text = "";
  const calls: vscode.LanguageModelToolCallPart[] = [];
  for await (const part of response.stream) {
    if (part instanceof vscode.LanguageModelTextPart) text += part.value;
    else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
  }
  return { text, calls };
}

suite("endpoint", () => {
  let model: vscode.LanguageModelChat;
  let editor: vscode.TextEditor;

  suiteSetup(async function () {
    if (!hasNativeEngine) this.skip(); // endpointUnavailable.test.ts checks what the universal package says instead
    // the demo pair is generated on first use (a second) and loads in another
    this.timeout(120_000);
    const content = readFileSync(repoFile("test/fixtures/corpus/templates/Qwen-Qwen3-0.6B.jinja").fsPath, "utf8");
    editor = await openFixture(await vscode.workspace.openTextDocument({ language: "chat-template", content }));
    // resolves once the model is loaded (or loading failed)
    await vscode.commands.executeCommand("chatTemplate.endpoint.start");
    // then the provider tells VS Code, which asks it for the models again
    await poll(demoModel, (m) => m !== undefined, "a listed demo model", 15_000).catch(() => undefined);
    const found = await demoModel();
    assert.ok(found, `no ${DEMO_MODEL} among ${JSON.stringify((await vscode.lm.selectChatModels()).map((m) => `${m.vendor}/${m.id}`))}`);
    model = found;
  });

  suiteTeardown(async () => {
    if (!editor) return; // skipped
    await vscode.commands.executeCommand("chatTemplate.endpoint.stop");
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  test("Start Endpoint runs one endpoint process and lists its model in vscode.lm", async () => {
    const [pid] = endpointProcesses();
    assert.equal(endpointProcesses().length, 1);
    // started from the installed copy, not a development folder
    const script = readFileSync(`/proc/${pid}/cmdline`, "utf8")
      .split("\0")
      .find((a) => a.endsWith("dist/endpoint.js"));
    assert.equal(script, join(extension().extensionPath, "dist", "endpoint.js"));
    assert.equal(model.vendor, VENDOR);
    assert.ok(model.maxInputTokens > 0);
  });

  test("the demo models are generated into the extension's global storage, not its (read-only) folder", function () {
    const userData = process.env.CHAT_TEMPLATE_E2E_USER_DATA;
    if (!installedPackage || !userData) this.skip();
    const storage = join(userData, "User", "globalStorage", extension().id);
    for (const f of ["demo-random-target.gguf", "demo-random-draft.gguf"])
      assert.ok(existsSync(join(storage, "demo-models", f)), `${f} in ${storage}/demo-models`);
    assert.ok(!existsSync(join(extension().extensionPath, "demo-models")));
  });

  test("the status bar shows it ready", async function () {
    if (!hasBrowser) this.skip();
    await waitForTexts(".statusbar-item", (items) => items.some((t) => t.includes(`Endpoint: ${DEMO_MODEL}`)));
    await screenshot("endpoint-ready");
  });

  test("the model answers a chat request with text", async function () {
    this.timeout(60_000);
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User("Hello")], {
      modelOptions: { max_tokens: 8, temperature: 0 },
    });
    const { text, calls } = await collect(response);
    assert.ok(text.length > 0, "some text (gibberish: the weights are random)");
    assert.deepEqual(calls, []);
  });

  test("with toolMode Required the model calls the tool", async function () {
    // seconds on two free cores, but the machine is shared: a limit only against a hang
    this.timeout(180_000);
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User("Weather in Paris?")], {
      tools: [WEATHER_TOOL],
      toolMode: vscode.LanguageModelChatToolMode.Required,
      modelOptions: { max_tokens: 100, temperature: 0 },
    });
    const { text, calls } = await collect(response);
    assert.equal(calls.length, 1, `one call; text ${JSON.stringify(text)}`);
    assert.equal(calls[0]!.name, "get_weather");
    assert.ok(calls[0]!.callId, "the call has an id");
    assert.ok(UNITS.includes((calls[0]!.input as { unit?: string }).unit!), JSON.stringify(calls[0]!.input));
  });

  test("Test Template Against Model streams the model's output into the preview", async function () {
    if (!hasBrowser) this.skip();
    this.timeout(180_000);
    const settings = vscode.workspace.getConfiguration("chatTemplate.testAgainstModel");
    await settings.update("maxTokens", 8, vscode.ConfigurationTarget.Global);
    try {
      await vscode.window.showTextDocument(editor.document);
      await vscode.commands.executeCommand("chatTemplate.testTemplateAgainstModel");
      await waitForTexts("#model-figures", (t) => t.some((f) => f.includes("finish: length")), 150_000);
      const [raw] = await texts("#model-raw");
      assert.ok(raw && raw.length > 0, "some raw output (gibberish: the weights are random)");
      await vscode.commands.executeCommand("workbench.action.closePanel"); // the Problems view would cover the pane
      await screenshot("test-against-model");
    } finally {
      await settings.update("maxTokens", undefined, vscode.ConfigurationTarget.Global);
      // the preview it opened would otherwise greet the preview suite
      const preview = vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith("chatTemplate.preview"));
      if (preview) await vscode.window.tabGroups.close(preview);
    }
  });

  test("with no GGUF set, the preview's Tokens view splits the output with the endpoint's /tokenize", async function () {
    if (!hasBrowser) this.skip();
    this.timeout(60_000);
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand("chatTemplate.renderWithSampleMessages");
    try {
      await waitForTexts(
        "#tokenizer",
        (t) => t.some((s) => s.startsWith(`tokenizer: endpoint: ${DEMO_MODEL} at http://127.0.0.1:`)),
        30_000,
      );
      await waitForElements(`#engine-jinja2 button[data-action="tokens"]`, [], (found) => found.length > 0, 30_000);
      await click(`#engine-jinja2 button[data-action="tokens"]`);
      const [view] = await waitForElements("#engine-jinja2 pre.token-view", ["data-count"], (found) => found.length > 0, 30_000);
      assert.ok(Number(view!.attributes["data-count"]) > 0, JSON.stringify(view!.attributes));
      // Qwen3's template writes <|im_start|> and <|im_end|>: special tokens of the demo vocabulary
      const specials = await elements("#engine-jinja2 pre.token-view span.tok.special");
      assert.ok(
        specials.some((s) => s.text === "<|im_start|>"),
        JSON.stringify(specials.map((s) => s.text)),
      );
      await screenshot("preview-tokens-endpoint");
    } finally {
      const preview = vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith("chatTemplate.preview"));
      if (preview) await vscode.window.tabGroups.close(preview);
    }
  });

  test("Endpoint Statistics charts the endpoint's DFlash figures by context in a webview", async function () {
    this.timeout(90_000);
    await collect(
      await model.sendRequest([vscode.LanguageModelChatMessage.User("Hello")], { modelOptions: { max_tokens: 8, temperature: 0 } }),
    );
    await vscode.commands.executeCommand("chatTemplate.endpoint.showStatistics");
    const tab = () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith("chatTemplate.endpointStatistics"));
    await poll(tab, (t) => t !== undefined, "an Endpoint Statistics tab", 10_000);
    try {
      if (!hasBrowser) return;
      await waitForTexts("figcaption", (t) => t.some((c) => c.startsWith("Tokens per second by context length")), 30_000);
      const [row] = await texts("tbody th");
      assert.equal(row, "<4k");
      await screenshot("endpoint-statistics");
    } finally {
      await vscode.window.tabGroups.close(tab()!);
    }
  });

  test("Stop Endpoint ends the process and the model goes away", async () => {
    const [pid] = endpointProcesses();
    assert.ok(pid);
    await vscode.commands.executeCommand("chatTemplate.endpoint.stop");
    assert.deepEqual(endpointProcesses(), []);
    assert.throws(() => process.kill(pid, 0), /ESRCH/, `process ${pid} is gone`);
    await poll(demoModel, (m) => m === undefined, `${DEMO_MODEL} listed after the stop`, 10_000);
    if (hasBrowser) await waitForTexts(".statusbar-item", (items) => items.some((t) => t.includes("Endpoint: stopped")));
  });
});
