// The Test Explorer lists the cases of a *.chat-template-test.json file and runs them: a passing case, a
// failing one (the template offers no tools) and a live one, skipped while no endpoint runs.
import * as assert from "node:assert/strict";
import { suite, test } from "mocha";
import * as vscode from "vscode";
import { click, elements, hasBrowser, screenshot, waitForElements, type PageElement } from "./helpers/driver";
import { openFixture } from "./helpers/workspace";

const ROWS = ".test-explorer .monaco-list-row";
const FILE = "greeting.chat-template-test.json";
const CASES = ["system role", "tools offered", "portable", "weather loop"];

// a row's text is the case's name, then its description ("live") or, once run, its duration; its aria-label
// holds the state (no case name here is the start of another)
const state = (rows: PageElement[], name: string) => rows.find((r) => r.text.startsWith(name))?.attributes["aria-label"] ?? null;

suite("Test Explorer", () => {
  test("lists a test file's cases and runs them: passed, failed, skipped", async function () {
    if (!hasBrowser) this.skip();
    this.timeout(120_000);
    await openFixture("template-tests/greeting.jinja");
    await vscode.commands.executeCommand("workbench.view.testing.focus");
    await waitForElements(ROWS, ["aria-label"], (rows) => rows.some((r) => r.text.includes(FILE)), 30_000);
    const shown = await elements(ROWS, ["aria-label"]);
    // the file's row may come collapsed
    if (!CASES.some((c) => state(shown, c) !== null)) await click(`${ROWS}:has-text("${FILE}") .monaco-tl-twistie`);
    await waitForElements(ROWS, ["aria-label"], (rows) => CASES.every((c) => state(rows, c) !== null), 20_000);
    // live cases are skipped only while no endpoint runs (an earlier suite may have started one)
    await vscode.commands.executeCommand("chatTemplate.endpoint.stop");
    await vscode.commands.executeCommand("testing.runAll");
    const done = await waitForElements(
      ROWS,
      ["aria-label"],
      (rows) =>
        /Passed/.test(state(rows, "system role") ?? "") &&
        /Failed/.test(state(rows, "tools offered") ?? "") &&
        /Skipped/.test(state(rows, "weather loop") ?? ""),
      60_000,
    );
    await screenshot("test-explorer");
    assert.match(state(done, "portable")!, /Passed/);
  });
});
