// `chat-template format`: prints, rewrites (--write), checks (--check) for CI.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runCli } from "../../helpers/cli";

const MESSY = "{%for m in messages%}\n{%if m.role=='user'%}\n{{-m.content|trim}}\n{%endif%}\n{%endfor%}";
const TIDY = "{% for m in messages %}\n    {% if m.role == 'user' %}\n        {{- m.content|trim }}\n    {% endif %}\n{% endfor %}";

function tempFile(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "ct-format-")), name);
  writeFileSync(file, text);
  return file;
}

describe("chat-template format", () => {
  it("prints the formatted template (4 spaces a level by default), the file untouched", () => {
    const file = tempFile("a.jinja", MESSY);
    const r = runCli(["format", file]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, TIDY);
    assert.equal(readFileSync(file, "utf8"), MESSY);
  });

  it("--indent sets the spaces a level", () => {
    const r = runCli(["format", "--indent", "2", tempFile("a.jinja", MESSY)]);
    assert.equal(r.stdout.split("\n")[2], "    {{- m.content|trim }}");
  });

  it("--check exits 1 naming the unformatted files, 0 once --write has formatted them", () => {
    const messy = tempFile("messy.jinja", MESSY);
    const tidy = tempFile("tidy.jinja", TIDY);
    const check = runCli(["format", "--check", messy, tidy]);
    assert.equal(check.status, 1);
    assert.equal(check.stdout, "");
    assert.match(check.stderr, /messy\.jinja is not formatted/);
    assert.doesNotMatch(check.stderr, /tidy\.jinja/);
    const write = runCli(["format", "--write", messy, tidy]);
    assert.equal(write.status, 0, write.stderr);
    assert.equal(write.stderr, `formatted ${messy}\n`);
    assert.equal(readFileSync(messy, "utf8"), TIDY);
    assert.equal(runCli(["format", "--check", messy, tidy]).status, 0);
  });

  it("counts the regions left as they are on stderr, and --explain lists them with their line", () => {
    const file = tempFile("text.jinja", "{% if messages %}\nYou are helpful.\n{% endif %}");
    const r = runCli(["format", "--explain", file]);
    assert.equal(r.status, 0);
    assert.match(r.stderr, /1 region\(s\) left as they are/);
    assert.match(r.stderr, /text\.jinja:2:1: left as it is: this whitespace is template text/);
  });

  it("exits 3 on a template that does not parse, saying where", () => {
    const r = runCli(["format", tempFile("bad.jinja", "{% if x %}{{ y")]);
    assert.equal(r.status, 3);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /bad\.jinja does not parse, so there is nothing to format until it does/);
    assert.match(r.stderr, /bad\.jinja:1:\d+: error: /);
  });

  it("exits 2 on usage errors", () => {
    const file = tempFile("a.jinja", MESSY);
    assert.equal(runCli(["format"]).status, 2);
    assert.equal(runCli(["format", "--write", "--check", file]).status, 2);
    assert.equal(runCli(["format", "--indent", "0", file]).status, 2);
    assert.equal(runCli(["format", join(tmpdir(), "no-such-template.jinja")]).status, 2);
  });

  it("--help describes it", () => {
    const r = runCli(["format", "--help"]);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^usage: chat-template format /);
    assert.match(r.stdout, /--check/);
  });
});
