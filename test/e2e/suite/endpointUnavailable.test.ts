// The universal package (what macOS, Windows and arm64 get: no native engine): Start Endpoint and the status
// bar say plainly that the bundled engine is not available on this platform and offer the external endpoint
// setting; no model is listed. (Diagnostics and the preview's dialect columns are checked by their own suites
// in this run too; preview.test.ts checks the real llama.cpp column's note.)
import * as assert from "node:assert/strict";
import { suite, suiteTeardown, test } from "mocha";
import * as vscode from "vscode";
import { click, hasBrowser, screenshot, waitForTexts } from "./helpers/driver";
import { poll } from "./helpers/wait";
import { hasNativeEngine, openFixture } from "./helpers/workspace";

const NOT_AVAILABLE = "The bundled engine is not available on this platform";
const BUTTON = "Use an External Endpoint";

suite("endpoint without the native engine", () => {
  suiteTeardown(async () => {
    if (hasNativeEngine) return;
    await vscode.workspace.getConfiguration("chatTemplate.endpoint").update("mode", undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  test("the status bar says the engine is not available on this platform", async function () {
    if (hasNativeEngine || !hasBrowser) this.skip();
    await openFixture("chat_template.jinja");
    await waitForTexts(".statusbar-item", (items) => items.some((t) => t.includes("Endpoint: not available on this platform")));
  });

  test("Start Endpoint says so, lists no model, and its button switches to the external endpoint's settings", async function () {
    if (hasNativeEngine || !hasBrowser) this.skip();
    await openFixture("chat_template.jinja");
    // the command resolves once the message is answered, so it is not awaited here
    const started = vscode.commands.executeCommand("chatTemplate.endpoint.start");
    // the test window shows no toasts; the notification center lists the message
    await vscode.commands.executeCommand("notifications.showList");
    await waitForTexts(".notifications-center .notification-list-item", (t) =>
      t.some((m) => m.includes(NOT_AVAILABLE) && m.includes("chatTemplate.endpoint.externalUrl")),
    );
    await screenshot("endpoint-unavailable");
    assert.deepEqual(await vscode.lm.selectChatModels({ vendor: "chat-template-studio" }), []);
    await click(`.notifications-center .notification-list-item .monaco-button:has-text("${BUTTON}")`);
    await started;
    await poll(
      async () => vscode.workspace.getConfiguration("chatTemplate.endpoint").get("mode"),
      (m) => m === "external",
      "mode external",
      10_000,
    );
    await waitForTexts(".statusbar-item", (items) => items.some((t) => t.includes("Endpoint: stopped")));
  });
});
