// Completion inside a template: the language server's items reach VS Code, and the suggest widget lists them.
import * as assert from "node:assert/strict";
import { suite, suiteSetup, test } from "mocha";
import * as vscode from "vscode";
import { hasBrowser, screenshot, waitForTexts } from "./helpers/driver";
import { fixtureUri, openFixture } from "./helpers/workspace";

// llama3.jinja, line 3: `… + message.role + …`, right after `message.` (character 40); `message` iterates `messages`.
const AFTER_MESSAGE_DOT = new vscode.Position(2, 40);

async function labels(uri: vscode.Uri, position: vscode.Position): Promise<string[]> {
  const list = await vscode.commands.executeCommand<vscode.CompletionList>("vscode.executeCompletionItemProvider", uri, position);
  return list.items.map((i) => (typeof i.label === "string" ? i.label : i.label.label));
}

suite("completion", () => {
  const uri = fixtureUri("llama3.jinja");
  let editor: vscode.TextEditor;

  suiteSetup(async () => {
    editor = await openFixture("llama3.jinja");
  });

  test("a message offers its fields", async () => {
    const got = await labels(uri, AFTER_MESSAGE_DOT);
    for (const field of ["role", "content", "tool_calls"]) assert.ok(got.includes(field), `${field} in ${JSON.stringify(got)}`);
  });

  test("after `|` the filters are offered", async () => {
    // `| trim`: the cursor right after `| ` (character 91).
    const got = await labels(uri, new vscode.Position(2, 91));
    for (const filter of ["trim", "tojson", "default"]) assert.ok(got.includes(filter), `${filter} in ${JSON.stringify(got)}`);
  });

  test("the suggest widget lists them", async function () {
    if (!hasBrowser) this.skip();
    editor.selection = new vscode.Selection(AFTER_MESSAGE_DOT, AFTER_MESSAGE_DOT);
    await vscode.commands.executeCommand("editor.action.triggerSuggest");
    await waitForTexts(".suggest-widget .monaco-list-row", (t) => t.some((s) => s.includes("content")));
    await screenshot("completion");
    await vscode.commands.executeCommand("hideSuggestWidget");
  });
});
