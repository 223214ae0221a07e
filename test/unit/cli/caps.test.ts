import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { corpusDir } from "../../helpers/corpus";
import { fixture, runCli } from "../../helpers/cli";

const KEYS = [
  "supports_tools",
  "supports_tool_calls",
  "supports_parallel_tool_calls",
  "supports_system_role",
  "supports_string_content",
  "supports_typed_content",
  "supports_object_arguments",
  "supports_preserve_reasoning",
  "supports_reasoning_effort",
];

describe("chat-template caps", () => {
  it("prints the probe's booleans under caps.cpp's names, probe_errors and the tool-call format", () => {
    const r = runCli(["caps", "--format", "json", corpusDir("templates", "GLM-4.7-Flash.jinja")]);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(out), [...KEYS, "probe_errors", "tool_call_format"]);
    const expected = JSON.parse(readFileSync(corpusDir("expected", "llamacpp-caps.json"), "utf8"))["GLM-4.7-Flash"];
    for (const k of KEYS) assert.equal(out[k], expected[k], k);
    assert.deepEqual(out.probe_errors, []);
    assert.equal(out.tool_call_format.mode, "TAG_WITH_TAGGED");
    assert.equal(out.tool_call_format.arguments.name_prefix, "<arg_key>");
  });

  it("--null-tools-probe: the older probe's throw, with its 1-based position, and every capability false", () => {
    const r = runCli(["caps", "--format", "json", "--null-tools-probe", fixture("glm-style.jinja")]);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    for (const k of KEYS) assert.equal(out[k], false, k);
    assert.deepEqual(out.probe_errors, [{ probe: "null_tools", line: 11, column: 8, message: "Cannot perform operation on null values" }]);
  });

  it("--engine minja runs the probe on minja: x.0 makes every probe throw", () => {
    const r = runCli(["caps", "--format", "json", "--engine", "minja", fixture("glm-style.jinja")]);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    for (const k of KEYS) assert.equal(out[k], false, k);
    assert.ok(out.probe_errors.length >= 5);
    assert.deepEqual(out.probe_errors[0], { probe: "typed_content", line: 23, column: 14, message: "Expected identifier in subscript" });
  });

  it("--engine llama-server probes as llama.cpp does, and the usage text names every engine it takes", () => {
    const r = runCli(["caps", "--format", "json", "--engine", "llama-server", fixture("glm-style.jinja")]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), JSON.parse(runCli(["caps", "--format", "json", fixture("glm-style.jinja")]).stdout));
    const usage = runCli(["caps"]).stderr;
    assert.match(usage, /--engine llamacpp\|llama-server\|minja\]/);
  });

  it("exits 2 on usage errors", () => {
    assert.equal(runCli(["caps"]).status, 2);
    assert.equal(runCli(["caps", "--format", "json", "--engine", "jinja2", fixture("portable.jinja")]).status, 2);
    assert.equal(runCli(["caps", "--format", "json", fixture("portable.jinja"), fixture("portable.jinja")]).status, 2);
    assert.equal(runCli(["caps", "--format", "json", "/no/such/file.jinja"]).status, 2);
  });
});
