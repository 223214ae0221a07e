// Format Document and Format Selection in the real editor: the language server's formatter, which keeps a layout
// change only where every engine renders every sample scenario as before.
import * as assert from "node:assert/strict";
import { suite, teardown, test } from "mocha";
import * as vscode from "vscode";
import { openFixture } from "./helpers/workspace";

const MESSY = "{%for m in messages%}\n{%if m.role=='user'%}\n{{-m.content|trim}}\n{%endif%}\n{%endfor%}\n{{x}}";
const TIDY = "{% for m in messages %}\n  {% if m.role == 'user' %}\n    {{- m.content|trim }}\n  {% endif %}\n{% endfor %}\n{{ x }}";

async function applied(editor: vscode.TextEditor, edits: vscode.TextEdit[] | undefined): Promise<string> {
  assert.ok(edits && edits.length > 0, "the formatter answered with edits");
  const edit = new vscode.WorkspaceEdit();
  edit.set(editor.document.uri, edits);
  assert.ok(await vscode.workspace.applyEdit(edit));
  return editor.document.getText();
}

suite("format", () => {
  // Each test formats a document of its own; none is left open for the next suite.
  teardown(() => vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor"));

  test("Format Document indents block bodies and normalizes spacing inside tags", async () => {
    const editor = await openFixture(await vscode.workspace.openTextDocument({ language: "chat-template", content: MESSY }));
    const edits = await vscode.commands.executeCommand<vscode.TextEdit[]>("vscode.executeFormatDocumentProvider", editor.document.uri, {
      tabSize: 2,
      insertSpaces: true,
    });
    assert.equal(await applied(editor, edits), TIDY);
  });

  test("Format Selection changes only the selected line", async () => {
    const editor = await openFixture(await vscode.workspace.openTextDocument({ language: "chat-template", content: MESSY }));
    const last = editor.document.lineCount - 1;
    const edits = await vscode.commands.executeCommand<vscode.TextEdit[]>(
      "vscode.executeFormatRangeProvider",
      editor.document.uri,
      new vscode.Range(last, 0, last, editor.document.lineAt(last).text.length),
      { tabSize: 2, insertSpaces: true },
    );
    assert.equal(await applied(editor, edits), MESSY.replace("{{x}}", "{{ x }}"));
  });
});
