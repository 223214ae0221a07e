// Which files open as chat templates: the manifest's `languages` contribution, as VS Code applies it.
import * as assert from "node:assert/strict";
import { suite, test } from "mocha";
import * as vscode from "vscode";
import { fixtureUri } from "./helpers/workspace";

suite("language id", () => {
  const languageOf = async (name: string) => (await vscode.workspace.openTextDocument(fixtureUri(name))).languageId;

  test("chat_template.jinja is a chat template", async () => {
    assert.equal(await languageOf("chat_template.jinja"), "chat-template");
  });

  test("any *.jinja is a chat template", async () => {
    assert.equal(await languageOf("llama3.jinja"), "chat-template");
  });

  test(".j2 is left to other extensions (Ansible)", async () => {
    assert.notEqual(await languageOf("playbook.j2"), "chat-template");
  });
});
