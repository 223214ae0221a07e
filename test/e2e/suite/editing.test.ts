// The editing features VS Code asks the language server for on a template: signature help inside a macro call,
// references and highlights of a macro parameter and a loop variable, and the fix-all source action that
// editor.codeActionsOnSave runs.
import * as assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite, suiteSetup, test } from "mocha";
import * as vscode from "vscode";
import { poll } from "./helpers/wait";
import { openFixture, waitForDiagnostics } from "./helpers/workspace";

const TEMPLATE = [
  "{%- macro turn(role, content='') -%}", // line 0
  "<|{{ role }}|>{{ content }}", // line 1
  "{%- endmacro -%}",
  "{%- for message in messages %}{{ turn(message.role, message.content) }}{% endfor %}", // line 3
  "{{- messages.0.content }}", // line 4: minja cannot compile `messages.0`
].join("\n");

const at = (line: number, text: string, offset = 0) => new vscode.Position(line, TEMPLATE.split("\n")[line]!.indexOf(text) + offset);

suite("editing", () => {
  let uri: vscode.Uri;

  suiteSetup(async () => {
    const file = join(mkdtempSync(join(tmpdir(), "editing-e2e-")), "turns.jinja");
    writeFileSync(file, TEMPLATE);
    uri = vscode.Uri.file(file);
    await openFixture(await vscode.workspace.openTextDocument(uri));
  });

  test("signature help in a macro call names the macro's parameters and the one under the cursor", async () => {
    const help = await poll(
      async () =>
        await vscode.commands.executeCommand<vscode.SignatureHelp>("vscode.executeSignatureHelpProvider", uri, at(3, "message.content")),
      (h) => (h?.signatures.length ?? 0) > 0,
      "signature help",
      20_000,
    );
    const signature = help.signatures[help.activeSignature]!;
    assert.match(signature.label, /^turn\(role, content=''\)/);
    assert.equal(signature.activeParameter ?? help.activeParameter, 1);
  });

  test("references of a macro parameter are its definition and its use", async () => {
    const refs = await vscode.commands.executeCommand<vscode.Location[]>("vscode.executeReferenceProvider", uri, at(0, "role", 1));
    assert.deepEqual(refs.map((r) => [r.range.start.line, r.range.start.character]).sort(), [
      [0, TEMPLATE.split("\n")[0]!.indexOf("role")],
      [1, TEMPLATE.split("\n")[1]!.indexOf("role")],
    ]);
  });

  test("highlights of a loop variable mark where it is bound and read", async () => {
    const marks = await vscode.commands.executeCommand<vscode.DocumentHighlight[]>(
      "vscode.executeDocumentHighlights",
      uri,
      at(3, "message in", 2),
    );
    assert.deepEqual(
      marks.map((h) => h.range.start.character).sort((a, b) => a - b),
      [at(3, "message in").character, at(3, "message.role").character, at(3, "message.content").character],
    );
  });

  test("fix all is offered as a source action and rewrites what minja cannot compile", async () => {
    await waitForDiagnostics(uri, (d) => d.some((x) => x.code === "minja/unsupported-syntax"), 60_000);
    const doc = await vscode.workspace.openTextDocument(uri);
    const whole = new vscode.Range(0, 0, doc.lineCount, 0);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      "vscode.executeCodeActionProvider",
      uri,
      whole,
      vscode.CodeActionKind.SourceFixAll.value,
    );
    const fixAll = actions.find((a) => a.kind && vscode.CodeActionKind.SourceFixAll.contains(a.kind));
    assert.ok(fixAll?.edit, `no fix-all action among ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.ok(await vscode.workspace.applyEdit(fixAll.edit));
    assert.equal(doc.lineAt(4).text, "{{- messages[0].content }}");
    await vscode.commands.executeCommand("workbench.action.files.revert");
  });
});
