// The extension manifest's promises that VS Code itself enforces, checked as data.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, it } from "node:test";

const manifest = JSON.parse(readFileSync(resolve(__dirname, "../../package.json"), "utf8"));

describe("package.json manifest", () => {
  it("an untrusted workspace cannot choose a program to run, a file to load natively, or a server to contact", () => {
    const restricted: string[] = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
    for (const key of [
      "chatTemplate.preview.pythonPath",
      "chatTemplate.preview.tokenizerModel",
      "chatTemplate.endpoint.mode",
      "chatTemplate.endpoint.targetModel",
      "chatTemplate.endpoint.draftModel",
      "chatTemplate.endpoint.templateFile",
      "chatTemplate.endpoint.externalUrl",
    ]) {
      assert.ok(restricted.includes(key), `${key} must be in restrictedConfigurations`);
      assert.ok(manifest.contributes.configuration.properties[key], `${key} is a contributed setting`);
    }
  });

  it("claims *.jinja and chat_template*.jinja but not .j2", () => {
    const lang = manifest.contributes.languages.find((l: { id: string }) => l.id === "chat-template");
    assert.deepEqual(lang.extensions, [".jinja"]);
    assert.ok(lang.filenamePatterns.includes("chat_template*.jinja"));
    assert.ok(!JSON.stringify(manifest.contributes.languages).includes(".j2"));
  });

  it("targets a VS Code no newer than the 1.139 we test in", () => {
    const [, major, minor] = /^\^?(\d+)\.(\d+)/.exec(manifest.engines.vscode)!;
    assert.ok(Number(major) === 1 && Number(minor) <= 139, manifest.engines.vscode);
  });
});
