import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fixture, runCli } from "../../helpers/cli";
import { corpusDir } from "../../helpers/corpus";

describe("chat-template check: engine diagnostics", () => {
  it("json: engine findings keep the contract, with the engine set and codes named after it", () => {
    const r = runCli(["check", "--format", "json", fixture("glm-style.jinja")]);
    assert.equal(r.status, 1, "minja's errors");
    const [report] = JSON.parse(r.stdout);
    assert.ok(report.diagnostics.length > 0);
    for (const d of report.diagnostics) {
      assert.deepEqual(Object.keys(d).sort(), ["code", "column", "endColumn", "endLine", "engine", "line", "message", "severity"]);
      assert.ok(d.engine === "minja" || d.engine === "llamacpp", d.engine);
      assert.ok(d.code.startsWith(`${d.engine}/`), d.code);
    }
    assert.ok(report.diagnostics.some((d: { engine: string; line: number }) => d.engine === "minja" && d.line === 23));
  });

  it("--engines picks the engines: jinja2 alone finds nothing here", () => {
    const r = runCli(["check", "--engines", "jinja2", fixture("glm-style.jinja")]);
    assert.equal(r.status, 0, r.stdout);
    assert.equal(r.stdout, "");
  });

  it("a finding only in the scenarios Jinja2 itself refuses is left out, and --unsupported-scenarios brings it back", () => {
    assert.equal(runCli(["check", "--engines", "llamacpp", fixture("qwen2.5.jinja")]).stdout, "");
  });

  it("text: one line per finding, naming the engine and the scenarios", () => {
    const r = runCli(["check", "--engines", "llamacpp", "--unsupported-scenarios", fixture("qwen2.5.jinja")]);
    assert.equal(r.status, 0, r.stdout);
    assert.match(
      r.stdout,
      /qwen2\.5\.jinja:\d+:\d+: information: llama\.cpp renders on where Jinja2 throws here .* \(in scenario 'typed-content'\) \[llamacpp\/renders-where-jinja2-throws\]/,
    );
  });

  it("a user message with typed content alone shows DeepSeek-V4's divergence, which the typed system message hid", () => {
    const r = runCli(["check", "--engines", "llamacpp", corpusDir("templates", "deepseek-ai-DeepSeek-V4.jinja")]);
    assert.match(
      r.stdout,
      /DeepSeek-V4\.jinja:78:5: warning: llama\.cpp renders different bytes here: a list prints as '' in llama\.cpp.*\(in scenario 'typed-user-content'\)/,
    );
  });
});
