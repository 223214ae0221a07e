// Hover inside a template: the language server's documentation reaches VS Code's hover, and the hover
// widget shows it.
import * as assert from "node:assert/strict";
import { suite, suiteSetup, test } from "mocha";
import * as vscode from "vscode";
import { hasBrowser, screenshot, waitForTexts } from "./helpers/driver";
import { fixtureUri, openFixture } from "./helpers/workspace";

// llama3.jinja, line 3: `… + message.content | trim + …`; `trim` starts at character 91.
const TRIM = new vscode.Position(2, 93);

function hoverText(hovers: vscode.Hover[]): string {
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === "string" ? c : c.value))).join("\n");
}

suite("hover", () => {
  const uri = fixtureUri("llama3.jinja");
  let editor: vscode.TextEditor;

  suiteSetup(async () => {
    editor = await openFixture("llama3.jinja");
  });

  test("a filter shows its signature over the filter's name", async () => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>("vscode.executeHoverProvider", uri, TRIM);
    assert.match(hoverText(hovers), /\(filter\) trim/);
    const ours = hovers.find((h) => h.range?.start.character === 91);
    assert.ok(ours, `no hover with the range of \`trim\` in ${JSON.stringify(hovers.map((h) => h.range))}`);
    assert.deepEqual([ours.range!.start.line, ours.range!.end.character], [2, 95]);
  });

  test("a context variable shows its type", async () => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>("vscode.executeHoverProvider", uri, new vscode.Position(1, 21));
    assert.match(hoverText(hovers), /\(context\) messages: list\[Message\]/);
  });

  test("the hover widget shows it", async function () {
    if (!hasBrowser) this.skip();
    editor.selection = new vscode.Selection(TRIM, TRIM);
    await vscode.commands.executeCommand("editor.action.showHover");
    await waitForTexts(".monaco-hover", (t) => t.some((s) => s.includes("(filter) trim")));
    await screenshot("hover");
    await vscode.commands.executeCommand("editor.action.hideHover");
  });
});
