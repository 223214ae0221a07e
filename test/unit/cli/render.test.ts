import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { registeredEngines, ENGINE_IDS } from "../../../server/src/dialects/index";
import { fixture, runCli } from "../../helpers/cli";
import { corpusDir } from "../../helpers/corpus";

const dir = mkdtempSync(join(tmpdir(), "render-cli-"));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe("chat-template render", () => {
  it("writes exactly the rendered bytes for a built-in scenario (bos/eos added as in the corpus)", () => {
    const tpl = corpusDir("templates", "Qwen-Qwen2.5-7B-Instruct.jinja");
    const r = runCli(["render", tpl, "--scenario", "basic"]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, "");
    assert.deepEqual(r.stdoutBytes, readFileSync(corpusDir("expected", "jinja2", "Qwen-Qwen2.5-7B-Instruct", "basic.out")));
  });

  it("--llama-server-args: the llama-server engine renders for the flags the user's server starts with", () => {
    const tpl = file("server.jinja", "{{ preserve_thinking }}|{{ lang }}|{{ enable_thinking }}");
    const run = (...more: string[]) => runCli(["render", tpl, "--engine", "llama-server", "--scenario", "basic", ...more]);
    assert.equal(run().stdout, "True||False");
    assert.equal(run("--llama-server-args", `--no-reasoning-preserve --chat-template-kwargs '{"lang": "fr"}'`).stdout, "False|fr|False");
    const bad = run("--llama-server-args", "--ctx-size 8");
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--llama-server-args: --ctx-size: not a llama-server flag that changes the prompt/);
    assert.match(run("--llama-server-args", `--chat-template-kwargs '{"a"`).stderr, /unterminated single quote/);
  });

  it("adds bos_token and eos_token unless the scenario sets them", () => {
    const tpl = file("tokens.jinja", "{{ bos_token }}|{{ eos_token }}");
    assert.equal(runCli(["render", tpl, "--scenario", "basic"]).stdout, "<|bos|>|<|eos|>");
    const scen = file("s.json", JSON.stringify({ mine: { bos_token: "<s>", messages: [] } }));
    assert.equal(runCli(["render", tpl, "--scenario", "mine", "--scenarios", scen]).stdout, "<s>|<|eos|>");
  });

  it("--context is the whole context, read with Python's number types", () => {
    const tpl = file("ctx.jinja", "{{ a }} {{ b }} {{ c }} {{ bos_token is defined }}");
    const ctx = file("ctx.json", '{"a": 1.0, "b": 12345678901234567890, "c": 1}');
    const r = runCli(["render", tpl, "--context", ctx]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "1.0 12345678901234567890 1 False");
  });

  it("--now pins strftime_now; --engine jinja2 is the default", () => {
    const tpl = file("now.jinja", "{{ strftime_now('%d %b %Y %H:%M') }}");
    const ctx = file("empty.json", "{}");
    const r = runCli(["render", tpl, "--engine", "jinja2", "--context", ctx, "--now", "2026-01-15T09:30:00"]);
    assert.equal(r.stdout, "15 Jan 2026 09:30");
  });

  it("writes non-ASCII output as UTF-8 and nothing else", () => {
    const tpl = file("u.jinja", "{{ 'é😀' }}\n");
    const r = runCli(["render", tpl, "--context", file("e.json", "{}")]);
    assert.deepEqual(r.stdoutBytes, Buffer.from("é😀", "utf8"));
  });

  it("a template error exits 3 with one JSON line {error, line, column, code} on stderr", () => {
    const tpl = file("err.jinja", "line one\n  {{ 'a' + 1 }}");
    const r = runCli(["render", tpl, "--context", file("e2.json", "{}")]);
    assert.equal(r.status, 3);
    assert.equal(r.stdout, "");
    const lines = r.stderr.split("\n").filter(Boolean);
    assert.equal(lines.length, 1);
    const e = JSON.parse(lines[0]);
    assert.deepEqual(Object.keys(e), ["error", "line", "column", "code"]);
    assert.deepEqual(e, { error: 'TypeError: can only concatenate str (not "int") to str', line: 2, column: 6, code: "runtime/type" });
  });

  it("a syntax error is a template error too", () => {
    const r = runCli(["render", fixture("broken.jinja"), "--scenario", "basic"]);
    assert.equal(r.status, 3);
    const e = JSON.parse(r.stderr);
    assert.match(e.code, /^syntax\//);
    assert.ok(e.line >= 1 && e.column >= 1);
  });

  it("usage errors exit 2", () => {
    const tpl = file("ok.jinja", "x");
    const ctx = file("ok.json", "{}");
    const cases: string[][] = [
      ["render"],
      ["render", tpl],
      ["render", tpl, tpl, "--context", ctx],
      ["render", tpl, "--scenario", "basic", "--context", ctx],
      ["render", tpl, "--context", ctx, "--scenarios", ctx],
      ["render", tpl, "--scenario", "no-such-scenario"],
      ["render", tpl, "--engine", "bogus", "--context", ctx],
      ["render", tpl, "--context", file("bad.json", "{'a': 1}")],
      ["render", tpl, "--context", file("list.json", "[1]")],
      ["render", tpl, "--context", join(dir, "missing.json")],
      ["render", join(dir, "missing.jinja"), "--context", ctx],
      ["render", tpl, "--context", ctx, "--now", "yesterday"],
      ["render", tpl, "--context", ctx, "--bogus"],
    ];
    for (const argv of cases) {
      const r = runCli(argv);
      assert.equal(r.status, 2, `${argv.join(" ")}: ${r.stderr}`);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /usage: chat-template render/);
    }
  });

  const missing = ENGINE_IDS.find((e) => !registeredEngines().includes(e));
  it(
    "an engine whose dialect is not registered is a clear usage error, not a crash",
    { skip: missing ? false : "every engine has a dialect" },
    () => {
      const r = runCli(["render", file("e.jinja", "x"), "--engine", missing!, "--context", file("e3.json", "{}")]);
      assert.equal(r.status, 2);
      assert.match(r.stderr, new RegExp(`engine '${missing}' is not available yet`));
    },
  );
});
