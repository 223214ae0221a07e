import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fixture, runCli } from "../../helpers/cli";

describe("chat-template check", () => {
  it("prints file:line:col: severity: message [code] and exits 1 on errors", () => {
    const r = runCli(["check", fixture("broken.jinja")]);
    assert.equal(r.status, 1, r.stderr);
    const lines = r.stdout.trim().split("\n");
    assert.ok(lines.length >= 2, r.stdout);
    for (const l of lines) assert.match(l, /^.+broken\.jinja:\d+:\d+: (error|warning|information|hint): .+ \[syntax\/[a-z-]+\]$/);
    assert.ok(
      lines.some((l) => l.includes("broken.jinja:5:")),
      "the broken filter call on line 5",
    );
    assert.ok(
      lines.some((l) => l.includes("broken.jinja:4:1: error:") && l.includes("'if'")),
      "the unclosed if on line 4",
    );
  });

  it("--llama-server-args: llama-server's findings are those of the user's server", () => {
    const dir = mkdtempSync(join(tmpdir(), "check-server-"));
    const tpl = join(dir, "t.jinja");
    writeFileSync(
      tpl,
      "{% if preserve_thinking is defined and not preserve_thinking %}dropped{% endif %}{% for m in messages %}{{ m.content }}{% endfor %}",
    );
    const dropped = (...more: string[]) => {
      const r = runCli(["check", "--engines", "jinja2,llama-server", "--format", "json", tpl, ...more]);
      const found = (JSON.parse(r.stdout) as { diagnostics: { code: string; message: string }[] }[])[0].diagnostics;
      return found.some((d) => d.code === "llama-server/renders-differently" && d.message.includes("'dropped' in llama-server"));
    };
    assert.equal(dropped(), false);
    assert.equal(dropped("--llama-server-args", "--no-reasoning-preserve"), true);
    assert.equal(runCli(["check", tpl, "--llama-server-args", "--reasoning maybe"]).status, 2);
  });

  it("json: one object per file with 1-based positions and engine null for syntax", () => {
    const r = runCli(["check", "--format", "json", fixture("broken.jinja"), fixture("portable.jinja")]);
    assert.equal(r.status, 1);
    const reports = JSON.parse(r.stdout);
    assert.equal(reports.length, 2);
    assert.equal(reports[1].diagnostics.length, 0);
    const d = reports[0].diagnostics.find((x: { line: number }) => x.line === 4);
    assert.deepEqual(Object.keys(d).sort(), ["code", "column", "endColumn", "endLine", "engine", "line", "message", "severity"]);
    assert.equal(d.column, 1);
    assert.equal(d.endLine, 4);
    assert.equal(d.engine, null);
    assert.match(d.code, /^syntax\//);
  });

  it("exits 0 on a clean template and prints nothing", () => {
    const r = runCli(["check", fixture("portable.jinja")]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(r.stdout, "");
  });

  it("a hostile template is a security error on every engine's run (exit 1), with engine null", () => {
    const r = runCli(["check", "--engines", "jinja2", "--format", "json", fixture("hostile-cycler.jinja")]);
    assert.equal(r.status, 1);
    const [report] = JSON.parse(r.stdout);
    const security = report.diagnostics.filter((d: { code: string }) => d.code.startsWith("security/"));
    assert.deepEqual(
      security.map((d: { code: string; severity: string; engine: null; line: number }) => [d.code, d.severity, d.engine, d.line]),
      [["security/code-execution", "error", null, 3]],
    );
  });

  it("exits 2 on usage errors", () => {
    assert.equal(runCli(["check"]).status, 2);
    assert.equal(runCli(["check", "--engines", "bogus", fixture("qwen2.5.jinja")]).status, 2);
    assert.equal(runCli(["check", "--format", "xml", fixture("qwen2.5.jinja")]).status, 2);
    assert.equal(runCli(["check", "--nope", fixture("qwen2.5.jinja")]).status, 2);
    assert.equal(runCli(["check", "/no/such/file.jinja"]).status, 2);
    assert.equal(runCli(["frobnicate"]).status, 2);
  });
});
