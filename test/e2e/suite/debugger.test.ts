// The chat-template debugger in VS Code: a breakpoint in a template, Start Debugging, a stop at that line inside
// a macro with the message in its Variables, Continue, and the session ends.
import * as assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite, suiteTeardown, test } from "mocha";
import * as vscode from "vscode";
import { click, hasBrowser, screenshot, waitForTexts } from "./helpers/driver";
import { nextEvent, poll } from "./helpers/wait";
import { openFixture } from "./helpers/workspace";

const TEMPLATE = [
  "{%- macro turn(m) -%}", // line 1
  "<|{{ m.role }}|>{{ m.content }}", // line 2: the breakpoint
  "{%- endmacro -%}",
  "{%- for message in messages %}{{ turn(message) }}{% endfor %}",
].join("\n");

interface Sent {
  type: string;
  event?: string;
  body?: { reason?: string };
}

suite("debugger", () => {
  const sent: Sent[] = [];
  const tracker = vscode.debug.registerDebugAdapterTrackerFactory("chat-template", {
    createDebugAdapterTracker: () => ({ onDidSendMessage: (m: Sent) => void sent.push(m) }),
  });
  suiteTeardown(() => {
    tracker.dispose();
    vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
  });

  test("stops at a breakpoint inside a macro, shows the message's role, continues to the end", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "debugger-e2e-")), "macro.jinja");
    writeFileSync(file, TEMPLATE);
    const uri = vscode.Uri.file(file);
    await openFixture(await vscode.workspace.openTextDocument(uri));
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", uri);
    assert.ok(
      lenses.some((l) => l.command?.command === "chatTemplate.debugWithSampleMessages"),
      "a Debug with sample messages lens",
    );
    // the condition (Jinja, in the engine) keeps it to the first message's turn
    vscode.debug.addBreakpoints([
      new vscode.SourceBreakpoint(new vscode.Location(uri, new vscode.Position(1, 0)), true, "m.role == 'system'"),
    ]);

    const started = nextEvent(vscode.debug.onDidStartDebugSession, (s) => s.type === "chat-template", "a chat-template session", 60_000);
    const ok = await vscode.debug.startDebugging(undefined, {
      type: "chat-template",
      request: "launch",
      name: "e2e",
      template: file,
      scenario: "basic",
    });
    assert.ok(ok, "startDebugging");
    const session = await started;
    await poll(
      () => sent.filter((m) => m.event === "stopped").map((m) => m.body?.reason),
      (reasons) => reasons.length > 0,
      "the adapter's stopped event",
      60_000,
    );
    assert.deepEqual(
      sent.filter((m) => m.event === "stopped").map((m) => m.body?.reason),
      ["breakpoint"],
    );

    const { stackFrames } = await session.customRequest("stackTrace", { threadId: 1 });
    assert.deepEqual(
      stackFrames.map((f: { name: string; line: number }) => [f.name, f.line]),
      [
        ["turn", 2],
        ["template", 4],
      ],
    );
    const { scopes } = await session.customRequest("scopes", { frameId: stackFrames[0].id });
    const args = scopes.find((s: { name: string }) => s.name === "Macro arguments");
    const { variables } = await session.customRequest("variables", { variablesReference: args.variablesReference });
    const m = variables.find((v: { name: string }) => v.name === "m");
    const fields = await session.customRequest("variables", { variablesReference: m.variablesReference });
    assert.equal(fields.variables.find((v: { name: string }) => v.name === "role").value, "'system'");
    if (hasBrowser) {
      // what the README shows: the stop inside the macro, its argument expanded in the Variables view
      await vscode.commands.executeCommand("workbench.view.debug");
      const scope = `.monaco-list-row:has-text("Macro arguments")`;
      await waitForTexts(scope, (t) => t.length === 1, 30_000);
      await click(scope);
      const argument = `.monaco-list-row:has-text("m = ")`;
      await waitForTexts(argument, (t) => t.length >= 1, 30_000);
      await click(argument);
      await waitForTexts(`.monaco-list-row:has-text("role = ")`, (t) => t.length >= 1, 30_000);
      await screenshot("debugger");
      // the suites after this one, and their screenshots, expect the Explorer in the side bar
      await vscode.commands.executeCommand("workbench.view.explorer");
    }

    // the output so far, in a read-only document beside (empty: the macro's first turn has not been printed yet)
    await vscode.commands.executeCommand("chatTemplate.showDebugOutput");
    const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === "chat-template-debug-output");
    assert.ok(shown, "the output document is shown");
    assert.equal(shown.document.getText(), "");

    const ended = nextEvent(vscode.debug.onDidTerminateDebugSession, (s) => s.id === session.id, "the session's end", 60_000);
    await session.customRequest("continue", { threadId: 1 });
    await ended;
    assert.equal(sent.filter((m) => m.event === "stopped").length, 1);
    // it grew to the whole prompt
    await poll(
      () => shown.document.getText(),
      (text) => text === "<|system|>You are a helpful assistant.<|user|>Hello! What is 2+2?",
      "the output document's text",
      20_000,
    );
    const tab = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .find((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === "chat-template-debug-output");
    if (tab) await vscode.window.tabGroups.close(tab);
  });
});
