// An engine incompatibility: `messages.0` (Jinja2 reads it as `messages[0]`) does not compile in minja. The
// language server reports it, offers the rewrite as a quick fix, and applying the fix clears the error — through
// the code action API and through the editor's Quick Fix menu.
import * as assert from "node:assert/strict";
import { setup, suite, teardown, test } from "mocha";
import * as vscode from "vscode";
import { click, hasBrowser, screenshot, waitForElements, waitForTexts } from "./helpers/driver";
import { nextEvent } from "./helpers/wait";
import { fixtureUri, openFixture, waitForDiagnostics } from "./helpers/workspace";

const FILE = "minja_incompatible.jinja";
const CODE = "minja/unsupported-syntax";
const TITLE = "Write messages[0]";

const isMinjaError = (d: vscode.Diagnostic) => d.code === CODE;

suite("quick fix", () => {
  const uri = fixtureUri(FILE);
  let editor: vscode.TextEditor;
  let original: string;
  let diagnostic: vscode.Diagnostic;

  setup(async () => {
    editor = await openFixture(FILE);
    original = editor.document.getText();
    [diagnostic] = (await waitForDiagnostics(uri, (d) => d.some(isMinjaError))).filter(isMinjaError);
  });

  // Each test edits the document; the next one starts from the file as saved.
  teardown(async () => {
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand("workbench.action.files.revert");
  });

  test("minja's compile error is reported on `messages.0`", () => {
    assert.equal(editor.document.getText(diagnostic.range), "messages.0");
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
    assert.match(diagnostic.message, /^minja cannot compile this.*Expected identifier in subscript/);
  });

  test("its quick fix rewrites it to `messages[0]` and the error goes away", async () => {
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>("vscode.executeCodeActionProvider", uri, diagnostic.range);
    const fix = actions.find((a) => a.title === TITLE);
    assert.ok(fix, `no "${TITLE}" among ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.equal(fix.kind?.value, vscode.CodeActionKind.QuickFix.value);
    assert.ok(fix.edit && (await vscode.workspace.applyEdit(fix.edit)));
    assert.equal(editor.document.getText(), original.replace("messages.0", "messages[0]"));
    await waitForDiagnostics(uri, (d) => !d.some(isMinjaError));
  });

  test("the Problems view offers it on that row, and choosing it edits the document", async function () {
    if (!hasBrowser) this.skip();
    await vscode.commands.executeCommand("workbench.actions.view.problems");
    const row = `.markers-panel .monaco-list-row:has-text("minja cannot compile this"):has-text("[Ln 1, Col 8]")`;
    await waitForTexts(row, (t) => t.length === 1);
    // The view asks for a row's fixes when the row is focused; its lightbulb is enabled only when a code action
    // names this diagnostic (the info rows' stay disabled).
    await click(row);
    const lightbulb = `${row} .markers-panel-action-quickfix:not(.disabled)`;
    await waitForElements(lightbulb, [], (found) => found.length === 1);
    await click(lightbulb);
    const item = `.monaco-menu .action-item:has-text("${TITLE}")`;
    await waitForTexts(item, (t) => t.length === 1);
    await screenshot("quick-fix");
    const edited = nextEvent(vscode.workspace.onDidChangeTextDocument, (e) => e.document === editor.document, "edit of the template");
    await click(item);
    await edited;
    assert.equal(editor.document.getText(), original.replace("messages.0", "messages[0]"));
    await waitForDiagnostics(uri, (d) => !d.some(isMinjaError));
  });
});
