// "Render with Sample Messages": the command opens the preview webview beside the template; the page shows
// what each engine renders for the chosen scenario (the corpus' recorded renders), marks where an engine
// differs from Jinja2, follows edits and scenario changes, and a click on the output selects the code that
// wrote it.
import { spawnSync } from "node:child_process";
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { suite, suiteSetup, suiteTeardown, test } from "mocha";
import * as vscode from "vscode";
import { click, elements, hasBrowser, screenshot, selectOption, waitForElements, type PageElement } from "./helpers/driver";
import { nextEvent } from "./helpers/wait";
import { hasNativeEngine, openFixture, repoFile } from "./helpers/workspace";

// A corpus template, so that the expectations are the corpus' own files; its text goes into an untitled
// document, which the tests may edit without touching the repo or the fixtures.
const TEMPLATE = "Qwen-Qwen2.5-7B-Instruct";
const expected = (engine: "jinja2" | "llamacpp" | "minja", scenario: string) =>
  readFileSync(repoFile(`test/fixtures/corpus/expected/${engine}/${TEMPLATE}/${scenario}.out`).fsPath, "utf8");

const SECTION_ATTRS = ["id", "data-status", "data-badge", "data-diffs", "data-reference"];
// The first render also starts the real engines' processes (Python, the llama.cpp worker): seconds on a busy machine.
const FIRST_RENDER_MS = 30_000;

const pythonHasJinja2 = () => spawnSync("python3", ["-c", "import jinja2"]).status === 0;

async function version(): Promise<number> {
  const [body] = await elements("body[data-version]", ["data-version"]);
  return Number(body?.attributes["data-version"] ?? -1);
}

// The engine columns once none is still rendering.
function settledSections(timeoutMs = 10_000): Promise<PageElement[]> {
  return waitForElements(
    "section.engine",
    SECTION_ATTRS,
    (s) => s.length > 0 && s.every((e) => e.attributes["data-status"] !== "pending"),
    timeoutMs,
  );
}

async function output(engine: string): Promise<string | undefined> {
  return (await elements(`#engine-${engine} pre.output`))[0]?.text;
}

function waitForOutput(engine: string, accept: (text: string | undefined) => boolean, timeoutMs = 10_000): Promise<PageElement[]> {
  return waitForElements(`#engine-${engine} pre.output`, [], (found) => accept(found[0]?.text), timeoutMs);
}

function previewTab(): vscode.Tab | undefined {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith("chatTemplate.preview"));
}

suite("preview", () => {
  let editor: vscode.TextEditor;

  suiteSetup(async () => {
    const content = readFileSync(repoFile(`test/fixtures/corpus/templates/${TEMPLATE}.jinja`).fsPath, "utf8");
    editor = await openFixture(await vscode.workspace.openTextDocument({ language: "chat-template", content }));
    await vscode.commands.executeCommand("chatTemplate.renderWithSampleMessages");
  });

  suiteTeardown(async () => {
    const tab = previewTab();
    if (tab) await vscode.window.tabGroups.close(tab);
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  test("the Render command opens the preview beside the template", async () => {
    // the tab shows up once the workbench has created the panel, after the command returned
    if (!previewTab()) await nextEvent(vscode.window.tabGroups.onDidChangeTabs, () => !!previewTab(), "preview tab").catch(() => undefined);
    const tab = previewTab();
    assert.ok(tab, `no preview tab among ${JSON.stringify(vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label)))}`);
    assert.equal(tab.label, `Preview: ${editor.document.uri.path}`);
    assert.notEqual(tab.group.viewColumn, editor.viewColumn, "the preview opens beside the editor, not over it");
  });

  test("each engine's column shows its render of the scenario", async function () {
    if (!hasBrowser) this.skip();
    this.timeout(FIRST_RENDER_MS + 20_000);
    await waitForOutput("jinja2", (t) => t === expected("jinja2", "basic"), FIRST_RENDER_MS);
    const sections = await settledSections(FIRST_RENDER_MS);
    await screenshot("preview");
    const byId = new Map(sections.map((s) => [s.attributes.id!.replace(/^engine-/, ""), s.attributes]));
    assert.deepEqual(
      [...byId.keys()],
      ["jinja2", "llamacpp", "minja", "hfjinja", "llama-server", "jinja2-3.1.2", "real-llamacpp", "real-jinja2"],
    );
    assert.equal(byId.get("jinja2")!["data-reference"], "true");
    assert.equal(byId.get("jinja2")!["data-badge"], "reference");
    const realJinja2 = pythonHasJinja2() ? "ok" : "unavailable";
    // without the native engine (the universal package) the real llama.cpp column says why it has no render
    const realLlamaCpp = hasNativeEngine ? "ok" : "unavailable";
    for (const [id, attrs] of byId) {
      const status = id === "real-jinja2" ? realJinja2 : id === "real-llamacpp" ? realLlamaCpp : "ok";
      assert.equal(attrs["data-status"], status, `${id}: ${JSON.stringify(attrs)}`);
      if (id !== "jinja2" && attrs["data-status"] === "ok") assert.equal(attrs["data-badge"], "same", `${id} renders as Jinja2 does here`);
    }
    for (const [id, engine] of [
      ["llamacpp", "llamacpp"],
      ["minja", "minja"],
      ["real-llamacpp", "llamacpp"],
    ] as const) {
      if (id === "real-llamacpp" && !hasNativeEngine) continue;
      assert.equal(await output(id), expected(engine, "basic"), id);
    }
    if (!hasNativeEngine) {
      const [note] = await elements("#engine-real-llamacpp .engine-note");
      assert.match(
        note?.text ?? "",
        /^the bundled llama\.cpp is not available on this platform \(this copy of the extension has no native files/,
      );
    }
    if (realJinja2 === "ok") assert.equal(await output("real-jinja2"), expected("jinja2", "basic"));
  });

  test("the verdict line comes first and sums the columns up", async function () {
    if (!hasBrowser) this.skip();
    await settledSections(FIRST_RENDER_MS);
    const [v] = await waitForElements("#verdict", ["data-kind"], (found) => found[0]?.attributes["data-kind"] === "same");
    assert.match(v!.text, /^all \d+ engines render the same bytes/);
  });

  test("a click on the output selects the template code that wrote it", async function () {
    if (!hasBrowser) this.skip();
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    const selected = nextEvent(
      vscode.window.onDidChangeTextEditorSelection,
      (e) => e.textEditor.document === editor.document && !e.selections[0]!.isEmpty,
      "selection in the template",
    );
    // "Hello!" is the user's message, printed by the user/assistant branch's one output tag.
    await click(`#engine-jinja2 pre.output span.seg:text-is("Hello!")`);
    const { selections } = await selected;
    assert.equal(
      editor.document.getText(selections[0]),
      `{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}`,
    );
  });

  test("an edit re-renders, and where an engine differs from Jinja2 is marked", async function () {
    if (!hasBrowser) this.skip();
    const before = await version();
    // Jinja2 prints a list as Python's repr; llama.cpp prints its items.
    const prefix = "{{- ['a'] }}";
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), prefix)));
    try {
      await waitForOutput("jinja2", (t) => t === `['a']${expected("jinja2", "basic")}`);
      assert.ok((await version()) > before, "body[data-version] goes up with each render");
      const llamacpp = (await settledSections()).find((s) => s.attributes.id === "engine-llamacpp")!;
      assert.equal(llamacpp.attributes["data-badge"], "differs");
      const [v] = await elements("#verdict", ["data-kind"]);
      assert.equal(v?.attributes["data-kind"], "differs");
      assert.match(v!.text, /^llama\.cpp dialect differs from Jinja2 at output line 1: .* reveal$/);
      const order = (await settledSections()).map((s) => s.attributes.id);
      assert.equal(order[0], "engine-llamacpp", "the engine that differs comes first");
      assert.ok(Number(llamacpp.attributes["data-diffs"]) >= 1, JSON.stringify(llamacpp.attributes));
      assert.equal(await output("llamacpp"), `a${expected("llamacpp", "basic")}`);
      const marked = await elements("#engine-llamacpp pre.output span.diff, #engine-llamacpp pre.output span.missing");
      assert.ok(marked.length >= 1, "the difference is marked in llama.cpp's output");
      await screenshot("preview-edited");
    } finally {
      await editor.edit((b) => b.delete(new vscode.Range(0, 0, 0, prefix.length)));
    }
    await waitForOutput("jinja2", (t) => t === expected("jinja2", "basic"));
  });

  test("the Tokens button shows the token view, or says how to get a tokenizer", async function () {
    if (!hasBrowser) this.skip();
    await settledSections();
    await click(`#engine-jinja2 button[data-action="tokens"]`);
    // the fixture workspace sets no chatTemplate.preview.tokenizerModel: the column says so and what to set
    const [note] = await waitForElements("#engine-jinja2 .token-note, #engine-jinja2 pre.token-view", [], (found) => found.length > 0);
    assert.match(note!.text, /no tokenizer.*chatTemplate\.preview\.tokenizerModel/);
    await screenshot("preview-tokens");
    await click(`#engine-jinja2 button[data-action="tokens"]`);
    await waitForOutput("jinja2", (t) => t === expected("jinja2", "basic"));
  });

  test("choosing another scenario renders it", async function () {
    if (!hasBrowser) this.skip();
    await selectOption("#scenario", "built-in:multi-turn");
    await waitForOutput("jinja2", (t) => t === expected("jinja2", "multi-turn"));
    assert.equal(await output("llamacpp"), expected("llamacpp", "multi-turn"));
    await selectOption("#scenario", "built-in:basic");
    await waitForOutput("jinja2", (t) => t === expected("jinja2", "basic"));
  });
});
