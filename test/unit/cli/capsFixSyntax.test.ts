import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fixture, runCli } from "../../helpers/cli";

describe("caps and fix on a template that does not parse", () => {
  for (const command of ["caps", "fix"]) {
    it(`${command} exits 3 and names each syntax error with its line and column`, () => {
      const r = runCli([command, fixture("broken.jinja")]);
      assert.equal(r.status, 3, r.stdout + r.stderr);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, new RegExp(`^${command}: .*broken\\.jinja does not parse`));
      assert.match(r.stderr, /broken\.jinja:4:1: error: .+ \[syntax\/[a-z-]+\]/);
    });
  }
});

describe("caps output", () => {
  it("a table by default: one row per capability, the tool-call format, the probe's throws", () => {
    const r = runCli(["caps", fixture("glm-style.jinja")]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^capability +llamacpp\nsupports_tools +(yes|no)\n/);
    assert.match(r.stdout, /\nsupports_reasoning_effort +(yes|no)\n\ntool-call format: [A-Z_]+\n/);
    assert.match(r.stdout, /\nprobe renders that threw: none\n$/);
  });

  it("the table lists the probe renders that threw, at their line and column", () => {
    const r = runCli(["caps", "--engine", "minja", fixture("glm-style.jinja")]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /\nprobe renders that threw:\n {2}typed_content at line 23, column 14: Expected identifier in subscript\n/);
  });

  it("--format json is the JSON object", () => {
    const r = runCli(["caps", "--format", "json", fixture("glm-style.jinja")]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(typeof JSON.parse(r.stdout).supports_tools, "boolean");
    assert.equal(runCli(["caps", "--format", "yaml", fixture("glm-style.jinja")]).status, 2);
  });
});
