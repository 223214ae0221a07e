import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runCli } from "../../helpers/cli";
import { corpusDir } from "../../helpers/corpus";

const dir = mkdtempSync(join(tmpdir(), "render-llamacpp-"));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe("chat-template render --engine llamacpp", () => {
  it("writes llama.cpp's bytes for a corpus template × scenario", () => {
    for (const [template, scenario] of [
      ["Qwen-Qwen3-0.6B", "tool-call-roundtrip"],
      ["openai-gpt-oss-120b", "tools-offered"],
    ]) {
      const r = runCli([
        "render",
        corpusDir("templates", `${template}.jinja`),
        "--engine",
        "llamacpp",
        "--scenario",
        scenario,
        "--now",
        "2026-12-02",
      ]);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stderr, "");
      assert.deepEqual(r.stdoutBytes, readFileSync(corpusDir("expected", "llamacpp", template, `${scenario}.out`)));
    }
  });

  it("reads the context as the engine's addon does (1.0 is an int) and pins strftime_now with --now", () => {
    const tpl = file("ctx.jinja", "{{ a }} {{ b }} {{ none }} {{ strftime_now('%d %b %Y %H:%M') }}");
    const r = runCli([
      "render",
      tpl,
      "--engine",
      "llamacpp",
      "--context",
      file("c.json", '{"a": 1.0, "b": [1, "x"]}'),
      "--now",
      "2026-01-15T09:30:00",
    ]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "1 1x  15 Jan 2026 09:30");
  });

  it("a render error exits 3 with the engine's message, line and column", () => {
    const tpl = file("in-none.jinja", "{% for t in tools %}\n{% if 'function' in t %}f{% endif %}{% endfor %}");
    const r = runCli(["render", tpl, "--engine", "llamacpp", "--context", file("n.json", '{"tools": [null]}')]);
    assert.equal(r.status, 3);
    assert.equal(r.stdout, "");
    assert.deepEqual(JSON.parse(r.stderr), { error: "Cannot perform operation on null values", line: 2, column: 7, code: "runtime/type" });
  });

  it("a template llama.cpp cannot compile exits 3 with the parser's message where it stopped", () => {
    const tpl = file("pow.jinja", "ok\n{{ 2 ** 3 }}");
    const r = runCli(["render", tpl, "--engine", "llamacpp", "--context", file("e.json", "{}")]);
    assert.equal(r.status, 3);
    assert.deepEqual(JSON.parse(r.stderr), { error: "Unexpected token: * of type 22", line: 2, column: 7, code: "syntax/unsupported" });
  });
});
