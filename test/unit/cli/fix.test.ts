import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fixture, runCli } from "../../helpers/cli";

describe("chat-template fix", () => {
  it("prints the template with every safe fix applied, byte for byte, and names them on stderr", () => {
    const r = runCli(["fix", fixture("glm-style.jinja")]);
    assert.equal(r.status, 0, r.stderr);
    const original = readFileSync(fixture("glm-style.jinja"), "utf8");
    assert.notEqual(r.stdout, original);
    assert.doesNotMatch(r.stdout, /\.0\./);
    assert.match(r.stdout, /for tool in tools if tool %\}/);
    assert.match(r.stderr, /^fixed: Write m\.content\[0\]$/m);
  });

  it("--engines limits the fixes to those engines' findings", () => {
    const r = runCli(["fix", "--engines", "llamacpp", fixture("glm-style.jinja")]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /m\.content\.0\.output/, "x.0 is left alone: llama.cpp v0.5.0 renders it");
    assert.match(r.stdout, /for tool in tools if tool %\}/);
  });

  it("a template with nothing to fix comes back unchanged", () => {
    const r = runCli(["fix", fixture("portable.jinja")]);
    assert.equal(r.status, 0);
    assert.equal(r.stdout, readFileSync(fixture("portable.jinja"), "utf8"));
    assert.equal(r.stderr, "");
  });

  it("refuses a template with a security finding (exit 1), naming each one, and prints nothing", () => {
    const r = runCli(["fix", fixture("hostile-cycler.jinja")]);
    assert.equal(r.status, 1);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^fix: refused: .*security findings/);
    assert.match(r.stderr, /hostile-cycler\.jinja:3:\d+: .*`__globals__`.*\[security\/code-execution\]/);
  });

  it("exits 2 on usage errors", () => {
    assert.equal(runCli(["fix"]).status, 2);
    assert.equal(runCli(["fix", "--engines", "bogus", fixture("portable.jinja")]).status, 2);
    assert.equal(runCli(["fix", "/no/such/file.jinja"]).status, 2);
  });
});
