// The extension manifest's promises that VS Code itself enforces, checked as data.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, it } from "node:test";

const manifest = JSON.parse(readFileSync(resolve(__dirname, "../../package.json"), "utf8"));
const nls: Record<string, string> = JSON.parse(readFileSync(resolve(__dirname, "../../package.nls.json"), "utf8"));

/** Every string value of the manifest, with where it is. */
function strings(value: unknown, at = ""): [string, string][] {
  if (typeof value === "string") return [[at, value]];
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => strings(v, `${at}.${k}`));
  return [];
}

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

  it("is localizable: every %key% has its text in package.nls.json, and every text there is used", () => {
    const used = strings(manifest).flatMap(([at, s]) => (/^%[^%\s]+%$/.test(s) ? [[at, s.slice(1, -1)] as const] : []));
    for (const [at, key] of used) assert.equal(typeof nls[key], "string", `${at}: ${key} is not in package.nls.json`);
    assert.deepEqual(
      Object.keys(nls).filter((k) => !used.some(([, u]) => u === k)),
      [],
      "unused strings in package.nls.json",
    );
    // the command palette's titles; displayName and description stay literal: npm shows them too
    for (const c of manifest.contributes.commands) assert.match(c.title, /^%.+%$/, c.command);
  });

  it("is listed under AI and Chat, and says what works in a virtual workspace", () => {
    for (const c of ["AI", "Chat", "Programming Languages", "Linters"]) assert.ok(manifest.categories.includes(c), c);
    assert.equal(manifest.capabilities.virtualWorkspaces.supported, "limited");
    assert.ok(manifest.capabilities.virtualWorkspaces.description.length > 20);
  });

  it("lists no activation event VS Code generates from the contributions", () => {
    const generated = [
      ...manifest.contributes.languages.map((l: { id: string }) => `onLanguage:${l.id}`),
      ...manifest.contributes.commands.map((c: { command: string }) => `onCommand:${c.command}`),
    ];
    assert.deepEqual(
      manifest.activationEvents.filter((e: string) => generated.includes(e)),
      [],
    );
  });

  it("has what the Marketplace and Open VSX show: repository, license, icon, keywords", () => {
    assert.match(manifest.repository.url, /^https:\/\//);
    assert.equal(manifest.license, "MIT");
    assert.ok(existsSync(resolve(__dirname, "../..", manifest.icon)));
    assert.ok(manifest.keywords.length >= 1 && manifest.keywords.length <= 30);
  });
});
