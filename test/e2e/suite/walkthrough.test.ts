// The first-run walkthrough: its page lists the five steps, and its own commands open a new template from the
// ChatML starter and a sample whose one diagnostic (minja's) has a quick fix that leaves none.
import * as assert from "node:assert/strict";
import { suite, suiteTeardown, test } from "mocha";
import * as vscode from "vscode";
import { hasBrowser, screenshot, waitForTexts } from "./helpers/driver";
import { extension, waitForDiagnostics } from "./helpers/workspace";

const STEPS = [
  "Open or create a chat template",
  "See an engine diagnostic and its fix",
  "Render with sample messages",
  "Start the endpoint with the demo models",
  "Test the template against the model",
];

suite("walkthrough", () => {
  suiteTeardown(() => vscode.commands.executeCommand("workbench.action.closeAllEditors"));

  test("New Chat Template opens the ChatML starter as an untitled chat template", async () => {
    await vscode.commands.executeCommand("chatTemplate.newTemplate");
    const doc = vscode.window.activeTextEditor!.document;
    assert.equal(doc.uri.scheme, "untitled");
    assert.equal(doc.languageId, "chat-template");
    assert.match(doc.getText(), /<\|im_start\|>/);
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  test("the engine-problem sample shows minja's error on messages.0, and its quick fix removes it", async () => {
    await vscode.commands.executeCommand("chatTemplate.openEngineProblemSample");
    const editor = vscode.window.activeTextEditor!;
    await extension().activate();
    const minja = (await waitForDiagnostics(editor.document.uri, (d) => d.some((x) => String(x.source).includes("minja")))).find((x) =>
      String(x.source).includes("minja"),
    );
    const at = editor.document.getText().indexOf("{%- if messages.0") + "{%- if ".length; // the code, not the comment above it
    assert.ok(
      minja && editor.document.offsetAt(minja.range.start) <= at && at < editor.document.offsetAt(minja.range.end),
      JSON.stringify(minja),
    );
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      "vscode.executeCodeActionProvider",
      editor.document.uri,
      minja.range,
    );
    const fix = actions.find((a) => a.title.includes("messages[0]"));
    assert.ok(fix?.edit, `a quick fix among ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    await waitForDiagnostics(editor.document.uri, (d) => d.length === 0);
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  test("the walkthrough page lists its five steps", async function () {
    if (!hasBrowser) this.skip();
    // the Problems view and whatever side bar an earlier suite opened would crowd the page
    await vscode.commands.executeCommand("workbench.action.closePanel");
    await vscode.commands.executeCommand("workbench.action.closeSidebar");
    await vscode.commands.executeCommand("workbench.action.openWalkthrough", `${extension().id}#gettingStarted`, false);
    await waitForTexts(".getting-started-step .step-title", (t) => STEPS.every((s) => t.some((x) => x.includes(s))), 20_000);
    await screenshot("walkthrough");
  });
});
