// `chat-template ab` on the scripted pair: the plain template always gets the well-formed call, the
// thinking one gets it or the malformed one as the seed decides, so the rates are known.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runCli } from "../../helpers/cli";
import { storageDir } from "../../helpers/endpoint";
import { startScriptedEndpoint, WEATHER, type ScriptedSetup } from "../../helpers/scriptedEndpoint";
import { HANG_GUARD_MS } from "../../helpers/hangGuard";

let s: ScriptedSetup;
let suite: string;
before(async () => {
  s = await startScriptedEndpoint();
  suite = join(s.dir, "suite.chat-template-test.json");
  writeFileSync(
    suite,
    JSON.stringify({
      template: "plain.jinja",
      cases: [
        { name: "caps", expect: { caps: { supports_tools: true } } },
        {
          name: "weather",
          live: { messages: [{ role: "user", content: "Weather in Paris?" }], tools: [WEATHER], expectToolCall: "get_weather", samples: 5 },
        },
      ],
    }),
  );
});
after(() => s.endpoint.stop());

describe("chat-template ab", { timeout: HANG_GUARD_MS }, () => {
  it("reports each template's well-formed rate with its interval, failures by kind, tokens, time and the difference", () => {
    const r = runCli(["ab", s.plain, s.thinking, "--suite", suite, "--samples", "20", "--endpoint", s.endpoint.url, "--json"]);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    const [a, b] = out.templates;
    assert.deepEqual([a.label, a.samples, a.wellFormed, a.failures], ["A", 20, 20, {}]);
    assert.equal(a.rate, 1);
    assert.ok(Math.abs(a.interval.low - 0.8389) < 1e-3 && a.interval.high === 1, JSON.stringify(a.interval));
    assert.equal(b.samples, 20);
    assert.deepEqual(Object.keys(b.failures), ["markup_in_content"]);
    assert.equal(b.wellFormed + b.failures.markup_in_content, 20);
    assert.ok(b.wellFormed >= 4 && b.wellFormed <= 16, `a fair coin over 20 seeds: ${b.wellFormed}`);
    // the well-formed call is 4 tokens; the thinking template's replies add the reasoning and its closing tag
    assert.equal(a.tokens.completion, 20 * 4);
    assert.ok(b.tokens.completion > a.tokens.completion);
    assert.ok(a.timeMs > 0 && b.timeMs > 0);
    assert.equal(out.difference.value, (b.wellFormed - 20) / 20);
    assert.equal(out.difference.significant, out.difference.high < 0);
    assert.deepEqual(a.cases, [{ name: "weather", samples: 20, wellFormed: 20, failures: {} }]);
    assert.equal(out.endpoint.server, "chat-template-studio");
    assert.equal(out.endpoint.model, "scripted");
    assert.deepEqual(out.notes, []);
  });

  it("the text table names both templates, every failure kind and the verdict; --samples defaults to the suite's", () => {
    const r = runCli(["ab", s.plain, s.thinking, "--suite", suite, "--endpoint", s.endpoint.url]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      /^suite .*suite\.chat-template-test\.json on http:\/\/127\.0\.0\.1:\d+ \(chat-template-studio, model scripted\)\n/,
    );
    assert.match(r.stdout, /\nwell-formed tool calls +5\/5 = 100\.0% +\d\/5 = \d+\.0%\n95% interval +56\.6% – 100\.0% /);
    for (const label of [
      "no call where one was required",
      "unparsable call",
      "unknown tool",
      "arguments that fail the schema",
      "markup leaked into content",
      "reasoning leaked into content",
    ]) {
      assert.match(r.stdout, new RegExp(`\\n${label} +0 +\\d\\n`));
    }
    assert.match(r.stdout, /\ncompletion tokens per sample +4\.0 +[\d.]+\n/);
    assert.match(r.stdout, /\ndifference B − A: [−+][\d.]+ points, 95% interval [−+][\d.]+ to [−+][\d.]+: (not )?significant\n$/);
  });

  it("without --endpoint it runs on the bundled endpoint's demo models, stops it, and says so", () => {
    const short = join(s.dir, "short.chat-template-test.json");
    writeFileSync(
      short,
      JSON.stringify({
        template: "plain.jinja",
        cases: [{ name: "w", live: { messages: [{ role: "user", content: "Weather?" }], tools: [WEATHER], maxTokens: 8 } }],
      }),
    );
    process.env.CTS_STORAGE_DIR = storageDir; // the demo models go to this test's folder
    const r = runCli(["ab", s.plain, s.thinking, "--suite", short, "--samples", "2", "--json"]);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.endpoint.model, "demo-random");
    assert.deepEqual(out.notes, ["the endpoint serves its demo models (random weights): these rates say nothing about a real model"]);
    assert.deepEqual(
      out.templates.map((t: { samples: number }) => t.samples),
      [2, 2],
    );
  });

  it("usage errors exit 2: a missing suite, no live cases, a bad --samples", () => {
    const noLive = join(s.dir, "static.chat-template-test.json");
    writeFileSync(
      noLive,
      JSON.stringify({ template: "plain.jinja", cases: [{ name: "caps", expect: { caps: { supports_tools: true } } }] }),
    );
    const cases: [string[], RegExp][] = [
      [[s.plain, s.thinking, "--endpoint", s.endpoint.url], /--suite FILE is required/],
      [[s.plain, s.thinking, "--suite", noLive, "--endpoint", s.endpoint.url], /has no live cases/],
      [
        [s.plain, s.thinking, "--suite", suite, "--endpoint", s.endpoint.url, "--samples", "0"],
        /--samples must be an integer from 1 to 1000/,
      ],
      [[s.plain, "--suite", suite, "--endpoint", s.endpoint.url], /give two templates/],
      [[s.plain, join(s.dir, "none.jinja"), "--suite", suite, "--endpoint", s.endpoint.url], /cannot read .*none\.jinja: ENOENT/],
    ];
    for (const [args, re] of cases) {
      const r = runCli(["ab", ...args]);
      assert.equal(r.status, 2, args.join(" "));
      assert.match(r.stderr, re);
    }
  });
});
