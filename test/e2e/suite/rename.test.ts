// Rename Symbol in a template: the language server's prepareRename and rename reach VS Code's rename
// provider, with the edit of every use. Refusals and their reasons are tested at the LSP level
// (test/unit/lsp/rename.test.ts): VS Code's extension host logs a refused rename as an error, which this suite
// counts as a failure of the extension.
import * as assert from "node:assert/strict";
import { suite, suiteSetup, test } from "mocha";
import * as vscode from "vscode";
import { fixtureUri, openFixture } from "./helpers/workspace";

// llama3.jinja, line 2: `{%- for message in messages %}`; `message` starts at character 8.
const MESSAGE = new vscode.Position(1, 10);

function rename(position: vscode.Position, newName: string): Thenable<vscode.WorkspaceEdit> {
  return vscode.commands.executeCommand<vscode.WorkspaceEdit>(
    "vscode.executeDocumentRenameProvider",
    fixtureUri("llama3.jinja"),
    position,
    newName,
  );
}

suite("rename", () => {
  suiteSetup(async () => {
    await openFixture("llama3.jinja");
  });

  test("renames the loop variable at its definition and every use", async () => {
    const edit = await rename(MESSAGE, "turn");
    const edits = edit.get(fixtureUri("llama3.jinja"));
    assert.deepEqual(
      edits.map((e) => [e.range.start.line, e.range.start.character, e.newText]),
      [
        [1, 8, "turn"],
        [2, 32, "turn"],
        [2, 73, "turn"],
      ],
    );
  });
});
