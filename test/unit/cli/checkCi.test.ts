import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import Ajv from "ajv-draft-04";
import { runCli } from "../../helpers/cli";

const SARIF_SCHEMA = require(resolve(__dirname, "../../../node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"));

/** A project folder with a template that has one warning (a URL) and one that has an information note. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "check-ci-"));
  writeFileSync(join(dir, "warn.jinja"), "{{ 'see https://example.com/x' }}");
  writeFileSync(join(dir, "info.jinja"), "{{ messages[3].content }}");
  writeFileSync(join(dir, "bad.jinja"), "{{ ''.__class__ }}\n{{ messages[3].content }}");
  return dir;
}

// info.jinja's note is about the conversations it does not support (Jinja2 throws on fewer than four messages),
// which check reports only when asked.
const check = (dir: string, ...args: string[]) =>
  runCli(["check", "--engines", "jinja2", "--unsupported-scenarios", ...args], { cwd: dir });

describe("chat-template check in CI", () => {
  it("--fail-on sets the level that fails: error (default), warning, information", () => {
    const dir = project();
    assert.equal(check(dir, "warn.jinja", "info.jinja").status, 0);
    assert.equal(check(dir, "--fail-on", "warning", "warn.jinja").status, 1);
    assert.equal(check(dir, "--fail-on", "warning", "info.jinja").status, 0);
    assert.equal(check(dir, "--fail-on", "information", "info.jinja").status, 1);
    assert.equal(check(dir, "--fail-on", "hint", "info.jinja").status, 2);
  });

  it("--format sarif is a valid SARIF 2.1.0 log: rules, levels, UTF-16 columns, relative paths", () => {
    const dir = project();
    const r = check(dir, "--format", "sarif", "bad.jinja", "warn.jinja");
    assert.equal(r.status, 1);
    const log: { runs: any[] } = JSON.parse(r.stdout);
    // The official schema is draft-04, and one of its patterns is not valid in unicode mode.
    const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
    assert.ok(ajv.validate(SARIF_SCHEMA, log), JSON.stringify(ajv.errors));
    const run = log.runs[0];
    assert.equal(run.columnKind, "utf16CodeUnits");
    const results = run.results.map((x: any) => [
      x.ruleId,
      x.level,
      x.locations[0].physicalLocation.artifactLocation.uri,
      x.locations[0].physicalLocation.region.startLine,
    ]);
    assert.deepEqual(results, [
      ["security/private-name", "error", "bad.jinja", 1],
      ["jinja2/throws", "note", "bad.jinja", 2],
      ["security/url", "warning", "warn.jinja", 1],
    ]);
    assert.deepEqual(
      run.tool.driver.rules.map((x: any) => x.id),
      ["jinja2/throws", "security/private-name", "security/url"],
    );
    for (const x of run.results) assert.equal(run.tool.driver.rules[x.ruleIndex].id, x.ruleId);
  });

  it("the ignore file accepts findings by code, file glob and line range, each with its reason", () => {
    const dir = project();
    writeFileSync(
      join(dir, ".chat-template-ignore.json"),
      JSON.stringify([
        { code: "security/*", file: "**/bad.jinja", lines: [1, 1], reason: "a fixture for the scanner's own tests" },
        { code: "jinja2/throws", file: "other.jinja", reason: "not this file" },
      ]),
    );
    const text = check(dir, "bad.jinja");
    assert.equal(text.status, 0, "the only error is accepted");
    assert.doesNotMatch(text.stdout, /security\//);
    assert.match(text.stdout, /bad\.jinja:2:4: information: .*\[jinja2\/throws\]/);
    const sarif = JSON.parse(check(dir, "--format", "sarif", "bad.jinja").stdout);
    const suppressed = sarif.runs[0].results.filter((x: any) => x.suppressions);
    assert.deepEqual(
      suppressed.map((x: any) => [x.ruleId, x.suppressions]),
      [["security/private-name", [{ kind: "external", justification: "a fixture for the scanner's own tests" }]]],
    );
    // the line range holds: the same finding on line 2 is not accepted
    writeFileSync(join(dir, "bad.jinja"), "\n{{ ''.__class__ }}");
    assert.equal(check(dir, "bad.jinja").status, 1);
    // --ignore-file names another one
    writeFileSync(join(dir, "none.json"), "[]");
    assert.equal(check(dir, "--ignore-file", "none.json", "bad.jinja").status, 1);
  });

  it("an ignore entry without a reason, or malformed, is a usage error naming the entry", () => {
    const dir = project();
    writeFileSync(
      join(dir, ".chat-template-ignore.json"),
      JSON.stringify([{ code: "security/url", reason: "ok" }, { code: "security/url" }]),
    );
    const r = check(dir, "warn.jinja");
    assert.equal(r.status, 2);
    assert.match(r.stderr, /\.chat-template-ignore\.json: entry 2: "reason" is required/);
    writeFileSync(join(dir, ".chat-template-ignore.json"), "{ not json");
    assert.equal(check(dir, "warn.jinja").status, 2);
  });
});
