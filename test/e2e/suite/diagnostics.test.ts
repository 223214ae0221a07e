// A broken chat template: the language server's syntax errors reach VS Code at the right ranges and the
// Problems view lists them.
import * as assert from "node:assert/strict";
import { suite, suiteSetup, test } from "mocha";
import * as vscode from "vscode";
import { hasBrowser, screenshot, waitForTexts } from "./helpers/driver";
import { fixtureUri, openFixture, waitForDiagnostics } from "./helpers/workspace";

// chat_template.jinja has three syntax errors (0-based lines and UTF-16 columns, as VS Code counts them).
const EXPECTED = [
  { code: "syntax/unclosed-block", range: [2, 4, 2, 36], message: /the 'if' block opened here is not closed/ },
  { code: "syntax/unexpected-token", range: [3, 58, 3, 60], message: /expected token ',', got 'end of print statement'/ },
  { code: "syntax/unexpected-token", range: [10, 14, 10, 16], message: /expected token ',', got 'end of print statement'/ },
];

suite("diagnostics", () => {
  const uri = fixtureUri("chat_template.jinja");
  let diagnostics: vscode.Diagnostic[];

  suiteSetup(async () => {
    await openFixture("chat_template.jinja");
    diagnostics = await waitForDiagnostics(uri, (d) => d.length >= EXPECTED.length);
  });

  test("syntax errors are reported at their ranges", () => {
    const actual = diagnostics
      .map((d) => ({ code: d.code, range: [d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character], d }))
      .sort((a, b) => a.range[0]! - b.range[0]! || a.range[1]! - b.range[1]!);
    assert.deepEqual(
      actual.map(({ code, range }) => ({ code, range })),
      EXPECTED.map(({ code, range }) => ({ code, range })),
    );
    actual.forEach(({ d }, i) => {
      assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
      assert.equal(d.source, "chat-template");
      assert.match(d.message, EXPECTED[i]!.message);
    });
  });

  test("the Problems view lists them", async function () {
    if (!hasBrowser) this.skip();
    await vscode.commands.executeCommand("workbench.actions.view.problems");
    const rows = await waitForTexts(".markers-panel .monaco-list-row", (t) => t.length >= 1 + EXPECTED.length);
    await screenshot("problems-view");
    assert.ok(
      rows.some((r) => r.includes("chat_template.jinja")),
      `no row for the file in ${JSON.stringify(rows)}`,
    );
    for (const { range, message } of EXPECTED) {
      const position = `[Ln ${range[0]! + 1}, Col ${range[1]! + 1}]`;
      assert.ok(
        rows.some((r) => message.test(r) && r.includes(position)),
        `no Problems row ${message} at ${position} in ${JSON.stringify(rows)}`,
      );
    }
  });
});
