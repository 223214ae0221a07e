import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { XMLParser } from "fast-xml-parser";
import { runCli } from "../../helpers/cli";

const glm = (name: string) => resolve(__dirname, "../../fixtures/templateTests/glm", name);

function tempTestFile(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), "ctt-"));
  writeFileSync(join(dir, "t.jinja"), "{{ messages[0].content }}");
  const file = join(dir, "t.chat-template-test.json");
  writeFileSync(file, body);
  return file;
}

describe("chat-template test", () => {
  it("the GLM-style original fails its caps cases (minja's probe, the null-tools probe) and names what threw", () => {
    const r = runCli(["test", glm("original.chat-template-test.json")]);
    assert.equal(r.status, 1, r.stderr);
    assert.match(
      r.stdout,
      /✗ tools read true on minja\n\s+caps\.supports_tools: expected true, saw false\n\s+probe renders that threw: typed_content at 23:14 \(Expected identifier in subscript\)/,
    );
    assert.match(r.stdout, /✗ tools read true with the null-tools probe[\s\S]*null_tools at 11:8/);
    assert.match(r.stdout, /original\.chat-template-test\.json:4\n/);
    assert.match(r.stdout, /✓ format/);
    assert.match(r.stdout, /1 passed, 2 failed/);
  });

  it("the fixed template passes every case (exit 0)", () => {
    const r = runCli(["test", glm("fixed.chat-template-test.json")]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /3 passed, 0 failed/);
  });

  it("a directory is searched for test files; a mismatched toolCallFormat key names its path", () => {
    const file = tempTestFile(
      JSON.stringify({ template: "t.jinja", cases: [{ name: "fmt", expect: { toolCallFormat: { mode: "JSON_NATIVE" } } }] }),
    );
    const r = runCli(["test", "--reporter", "json", resolve(file, "..")]);
    assert.equal(r.status, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.summary, { total: 1, failed: 1, passed: 0, skipped: 0 });
    assert.deepEqual(out.files[0].cases[0].failures, [{ expectation: "toolCallFormat.mode", expected: "JSON_NATIVE", seen: "NONE" }]);
  });

  it("--reporter junit parses as JUnit XML with one testcase per case and a failure where one failed", () => {
    const r = runCli(["test", "--reporter", "junit", glm("")]);
    assert.equal(r.status, 1, r.stderr);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(r.stdout);
    assert.equal(doc.testsuites.tests, "6");
    assert.equal(doc.testsuites.failures, "2");
    const suites = doc.testsuites.testsuite;
    assert.equal(suites.length, 2);
    const original = suites.find((s: { name: string }) => s.name.endsWith("original.chat-template-test.json"));
    assert.equal(original.testcase.length, 3);
    assert.match(original.testcase[0].failure.message, /caps\.supports_tools: expected true, saw false/);
    assert.equal(original.testcase[2].failure, undefined);
  });

  it("a bad test file is a usage error (exit 2) at its line, before any case runs", () => {
    const bad = tempTestFile(
      '{\n  "template": "t.jinja",\n  "cases": [\n    {"name": "x", "expect": {"caps": {"supports_tools": "yes"}}}\n  ]\n}\n',
    );
    const r = runCli(["test", bad]);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /t\.chat-template-test\.json:4:\d+: "supports_tools" must be true or false/);
    const syntax = runCli(["test", tempTestFile('{"template": "t.jinja",\n "cases": [}')]);
    assert.equal(syntax.status, 2);
    assert.match(syntax.stderr, /:2:\d+: invalid JSON/);
    const unknown = runCli(["test", tempTestFile('{"template": "t.jinja", "cases": [\n{"name": "a", "expect": {"rendersFast": true}}]}')]);
    assert.match(unknown.stderr, /:2:\d+: unknown key "rendersFast"/);
    assert.equal(runCli(["test", "/no/such/dir"]).status, 2);
    assert.equal(runCli(["test", "--reporter", "xml", glm("fixed.chat-template-test.json")]).status, 2);
  });
});
