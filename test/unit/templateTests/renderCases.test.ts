import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";
import { runCli } from "../../helpers/cli";

/** A folder with the template and a test file of these cases; returns the test file's path. */
function suite(template: string, cases: unknown[], extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "ctt-render-"));
  writeFileSync(join(dir, "t.jinja"), template);
  for (const [name, text] of Object.entries(extra)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const file = join(dir, "t.chat-template-test.json");
  writeFileSync(file, JSON.stringify({ template: "t.jinja", cases }, null, 1));
  return file;
}

const json = (file: string, ...flags: string[]) => {
  const r = runCli(["test", "--reporter", "json", ...flags, file]);
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return { status: r.status, out: JSON.parse(r.stdout) };
};

// minja prints an integer-valued division without its ".0"; `x.0` does not compile in minja.
const DIVIDES = "{{ messages[0].content }} {{ (messages|length) / 2 }}";
const NUMERIC_ATTR = "{% set x = [1] %}{{ x.0 }}";

describe("chat-template test: render cases", () => {
  it("renders: each engine of the case renders the scenario; one that throws is named with the template line", () => {
    const file = suite(NUMERIC_ATTR, [
      { name: "portable", scenario: "basic", engines: ["jinja2", "llamacpp", "minja"], expect: { renders: true } },
      { name: "throws on minja", scenario: "basic", engines: ["minja"], expect: { renders: false } },
    ]);
    const { status, out } = json(file);
    assert.equal(status, 1);
    assert.deepEqual(out.files[0].cases[0].failures, [
      { expectation: "renders (minja)", expected: true, seen: false, detail: "minja threw at 1:21: Expected identifier in subscript" },
    ]);
    assert.equal(out.files[0].cases[1].status, "passed");
  });

  it("sameAs: an engine that renders other bytes fails with a diff; the reference is rendered even when not listed", () => {
    const file = suite(DIVIDES, [
      { name: "same", scenario: "basic", engines: ["llamacpp", "minja"], expect: { sameAs: "jinja2" } },
      { name: "llama.cpp agrees", scenario: "basic", engines: ["llamacpp"], expect: { renders: true, sameAs: "jinja2" } },
    ]);
    const r = runCli(["test", file]);
    assert.equal(r.status, 1, r.stderr);
    assert.match(
      r.stdout,
      /✗ same\n\s+sameAs \(minja\): expected "jinja2's bytes", saw "other bytes"\n\s+--- jinja2\n\s+\+\+\+ minja\n[\s\S]*-You are a helpful assistant\. 1\.0\n[\s\S]*\+You are a helpful assistant\. 1\n/,
    );
    assert.doesNotMatch(r.stdout, /sameAs \(llamacpp\)/);
    assert.match(r.stdout, /✓ llama\.cpp agrees/);
  });

  it("a scenario is a built-in name or a scenario file relative to the test file", () => {
    const scenario = JSON.stringify({
      messages: [
        { role: "user", content: "from a file" },
        { role: "assistant", content: "ok" },
      ],
    });
    const file = suite(
      DIVIDES,
      [{ name: "file", scenario: "scenarios/mine.json", engines: ["jinja2"], expect: { snapshot: "snap.txt" } }],
      {
        "scenarios/mine.json": scenario,
        "snap.txt": "from a file 1.0",
      },
    );
    assert.equal(json(file).status, 0);
  });

  it("snapshot: missing says how to write it; --update-snapshots writes it; a changed render fails with a diff", () => {
    const file = suite(DIVIDES, [
      { name: "prompt", scenario: "basic", engines: ["llamacpp"], expect: { snapshot: "snapshots/basic.txt" } },
    ]);
    const snap = join(file, "..", "snapshots", "basic.txt");
    let r = json(file);
    assert.equal(r.status, 1);
    assert.deepEqual(r.out.files[0].cases[0].failures[0], {
      expectation: "snapshot",
      expected: "snapshots/basic.txt",
      seen: "no file (ENOENT)",
      detail: "run with --update-snapshots to write it",
    });
    const text = runCli(["test", "--update-snapshots", file]);
    assert.equal(text.status, 0, text.stdout + text.stderr);
    assert.match(text.stdout, /wrote snapshot .*snapshots\/basic\.txt/);
    assert.equal(readFileSync(snap, "utf8"), "You are a helpful assistant. 1.0");
    assert.equal(json(file).status, 0);
    writeFileSync(snap, "You are a helpful assistant. 2.0");
    r = json(file);
    assert.equal(r.status, 1);
    const f = r.out.files[0].cases[0].failures[0];
    assert.equal(f.expectation, "snapshot (llamacpp)");
    assert.match(f.detail, /-You are a helpful assistant\. 2\.0[\s\S]*\+You are a helpful assistant\. 1\.0/);
    // both outputs whole, for an editor's diff view (the Test Explorer's)
    assert.deepEqual([f.expectedOutput, f.seenOutput], ["You are a helpful assistant. 2.0", "You are a helpful assistant. 1.0"]);
  });

  it("--update-snapshots writes nothing for an engine that throws, and the case fails", () => {
    const file = suite(NUMERIC_ATTR, [{ name: "p", scenario: "basic", engines: ["minja"], expect: { snapshot: "s.txt" } }]);
    const r = json(file, "--update-snapshots");
    assert.equal(r.status, 1);
    assert.equal(r.out.files[0].cases[0].failures[0].seen, "an error");
    assert.equal(existsSync(join(file, "..", "s.txt")), false);
  });

  it("diagnostics: fails when the editor would show something more severe than maxSeverity on those engines", () => {
    const file = suite(DIVIDES, [
      { name: "minja quiet", expect: { diagnostics: { engines: ["minja"], maxSeverity: "information" } } },
      { name: "minja warns at most", expect: { diagnostics: { engines: ["minja"], maxSeverity: "warning" } } },
      { name: "jinja2 quiet", expect: { diagnostics: { engines: ["jinja2"], maxSeverity: "hint" } } },
    ]);
    const { out } = json(file);
    const [quiet, warns, reference] = out.files[0].cases;
    assert.equal(quiet.failures[0].expectation, "diagnostics.maxSeverity");
    assert.equal(quiet.failures[0].expected, "information");
    assert.equal(quiet.failures[0].seen, "warning");
    assert.match(quiet.failures[0].detail, /^1:27 warning minja\/renders-differently: /);
    assert.equal(warns.status, "passed");
    assert.equal(reference.status, "passed");
  });

  it("bad render cases are errors at their line (exit 2)", () => {
    const bad = (cases: unknown[], re: RegExp) => {
      const r = runCli(["test", suite(DIVIDES, cases)]);
      assert.equal(r.status, 2, r.stdout);
      assert.match(r.stderr, re);
    };
    bad([{ name: "a", expect: { renders: true } }], /:\d+:\d+: case "a" renders, so it needs a "scenario"/);
    bad([{ name: "a", scenario: "nope", expect: { renders: true } }], /no built-in scenario "nope" \(built in: basic, /);
    bad([{ name: "a", scenario: "missing.json", expect: { renders: true } }], /cannot read scenario file .*missing\.json: ENOENT/);
    bad(
      [{ name: "a", scenario: "basic", engines: ["vllm"], expect: { renders: true } }],
      /each of "engines" must name an engine: one of jinja2, /,
    );
    bad(
      [{ name: "a", scenario: "basic", expect: { caps: { supports_tools: true } } }],
      /"scenario" and "engines" are for "renders", "sameAs" and "snapshot"/,
    );
    bad(
      [{ name: "a", expect: { diagnostics: { maxSeverity: "fatal" } } }],
      /"diagnostics" needs "maxSeverity": one of error, warning, information, hint/,
    );
  });
});

describe("starter test files", () => {
  it("every starter template passes its test file", () => {
    const r = runCli(["test", join(__dirname, "../../../templates/starters")]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /0 failed \(\d+ cases in 2 files\)/);
  });
});

describe("chat-template test: prefixStable", () => {
  it("passes for a template that keeps earlier turns, fails with the finding for one that drops earlier reasoning", () => {
    const stable = QWEN3_CHAT_TEMPLATE.replace("{%- if loop.index0 > ns.last_query_index %}", "{%- if true %}");
    const ok = json(suite(stable, [{ name: "keeps the cache", expect: { prefixStable: true } }]));
    assert.equal(ok.status, 0);
    const { status, out } = json(suite(QWEN3_CHAT_TEMPLATE, [{ name: "keeps the cache", expect: { prefixStable: true } }]));
    assert.equal(status, 1);
    const [f] = out.files[0].cases[0].failures;
    assert.deepEqual([f.expectation, f.expected, f.seen], ["prefixStable", true, false]);
    assert.match(f.detail, /^\d+:\d+ Prefix cache lost: message 2's reasoning is dropped once a later user message exists/);
    assert.equal(json(suite(QWEN3_CHAT_TEMPLATE, [{ name: "known loss", expect: { prefixStable: false } }])).status, 0);
  });
});
