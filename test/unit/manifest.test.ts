// The extension manifest's promises that VS Code itself enforces, checked as data.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
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

  it("a first-run walkthrough: open or create a template, an engine diagnostic and its fix, render, start the endpoint, test against the model", () => {
    const [walkthrough, ...others] = manifest.contributes.walkthroughs;
    assert.equal(others.length, 0);
    const steps: { id: string; description: string; media: { image: string; altText: string }; completionEvents: string[] }[] =
      walkthrough.steps;
    assert.deepEqual(
      steps.map((s) => s.id),
      ["openTemplate", "engineDiagnostic", "render", "startEndpoint", "testAgainstModel"],
    );
    const ours = new Set(manifest.contributes.commands.map((c: { command: string }) => c.command));
    const builtIn = new Set(["workbench.action.files.openFile"]);
    for (const step of steps) {
      const links = [...step.description.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]!);
      assert.ok(links.length > 0, `${step.id} has a button`);
      for (const c of links) assert.ok(ours.has(c) || builtIn.has(c), `${step.id}: ${c} is not a command`);
      assert.ok(existsSync(resolve(__dirname, "../..", step.media.image)), `${step.id}: ${step.media.image} is missing`);
      assert.ok(step.media.altText, `${step.id} has alt text`);
      for (const e of step.completionEvents) {
        const command = /^onCommand:(.+)$/.exec(e)?.[1];
        if (command) assert.ok(links.includes(command), `${step.id} completes on a command it offers`);
      }
    }
    for (const c of [
      "chatTemplate.newTemplate",
      "chatTemplate.openEngineProblemSample",
      "chatTemplate.renderWithSampleMessages",
      "chatTemplate.endpoint.start",
      "chatTemplate.testTemplateAgainstModel",
    ]) {
      assert.ok(
        steps.some((s) => s.description.includes(`(command:${c})`)),
        `a step offers ${c}`,
      );
    }
  });
});
