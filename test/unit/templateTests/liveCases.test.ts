// Live cases on the real endpoint and engine, with the scripted target: what the model writes is known,
// so the harness's counts of well-formed and malformed calls can be checked.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { XMLParser } from "fast-xml-parser";
import { CaseProcess } from "../../../client/src/templateTests/caseProcess";
import { openEndpoint, readTestFile } from "../../../server/src/templateTests";
import { runCli } from "../../helpers/cli";
import { startScriptedEndpoint, WEATHER, type ScriptedSetup } from "../../helpers/scriptedEndpoint";
import { HANG_GUARD_MS } from "../../helpers/hangGuard";

let s: ScriptedSetup;
before(async () => {
  s = await startScriptedEndpoint();
});
after(() => s.endpoint.stop());

const ask = [{ role: "user", content: "What is the weather in Paris?" }];

function testFile(name: string, template: string, cases: unknown[]): string {
  const file = join(s.dir, `${name}.chat-template-test.json`);
  writeFileSync(file, JSON.stringify({ template, cases }, null, 1));
  return file;
}

const runJson = (...args: string[]) => {
  const r = runCli(["test", "--reporter", "json", ...args]);
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return { status: r.status, out: JSON.parse(r.stdout) };
};

describe("chat-template test: live cases", { timeout: HANG_GUARD_MS }, () => {
  it("a call of the expected tool, with arguments that fit its schema, over 3 turns with scripted results", () => {
    const file = testFile("loop", "plain.jinja", [
      {
        name: "tool loop",
        live: {
          messages: ask,
          tools: [WEATHER],
          expectToolCall: "get_weather",
          turns: 3,
          toolResults: { get_weather: { temperature: 18 } },
        },
      },
    ]);
    const { status, out } = runJson("--endpoint", s.endpoint.url, file);
    assert.equal(status, 0, JSON.stringify(out));
    assert.deepEqual(out.files[0].cases[0].live, { samples: 1, wellFormed: 1, failures: {} });
    assert.deepEqual(out.notes, []);
  });

  it("the Test Explorer's helper process runs a live case as the CLI does, on the endpoint it is given", async () => {
    const file = testFile("helper", "plain.jinja", [
      { name: "once", live: { messages: ask, tools: [WEATHER], expectToolCall: "get_weather" } },
    ]);
    const worker = resolve(__dirname, "../../../dist/templateTestWorker.js");
    const p = new CaseProcess({ command: process.execPath, args: [worker], timeoutMs: 60_000, memoryMb: 1024 });
    try {
      const endpoint = await openEndpoint(s.endpoint.url);
      const reply = await p.run(readTestFile(file).cases[0], { testFile: file, name: "once", updateSnapshots: false, endpoint });
      assert.ok(reply.ok, JSON.stringify(reply));
      assert.deepEqual([reply.result.failures, reply.result.live], [[], { samples: 1, wellFormed: 1, failures: {} }]);
    } finally {
      p.dispose();
    }
  });

  it("samples: the share of well-formed ones is counted per failure kind and checked against minWellFormed", () => {
    const file = testFile("samples", "thinking.jinja", [
      { name: "reliable", live: { messages: ask, tools: [WEATHER], expectToolCall: "get_weather", samples: 20, minWellFormed: 0.9 } },
    ]);
    const { status, out } = runJson("--endpoint", s.endpoint.url, file);
    assert.equal(status, 1);
    const c = out.files[0].cases[0];
    // the script writes the well-formed call or, as often, a call the grammar never saw, left in the content
    assert.equal(c.live.samples, 20);
    assert.deepEqual(Object.keys(c.live.failures), ["markup_in_content"]);
    assert.equal(c.live.wellFormed + c.live.failures.markup_in_content, 20);
    assert.ok(c.live.wellFormed >= 4 && c.live.wellFormed <= 16, `a fair coin over 20 seeds: ${c.live.wellFormed}`);
    assert.equal(c.failures[0].expectation, "live.minWellFormed");
    assert.equal(c.failures[0].seen, c.live.wellFormed / 20);
    assert.match(c.failures[0].detail, /markup leaked into content ×\d+\nfirst failure \(seed \d+\): content holds "<tool_call>"/);
  });

  it("the same seeds give the same samples (the A/B comparison relies on it)", () => {
    const file = testFile("again", "thinking.jinja", [
      { name: "x", live: { messages: ask, tools: [WEATHER], expectToolCall: "get_weather", samples: 6, minWellFormed: 0 } },
    ]);
    const a = runJson("--endpoint", s.endpoint.url, file).out.files[0].cases[0].live;
    const b = runJson("--endpoint", s.endpoint.url, file).out.files[0].cases[0].live;
    assert.deepEqual(a, b);
  });

  it("our endpoint renders each request with the test file's template; one it cannot load refuses the request", () => {
    writeFileSync(join(s.dir, "broken.jinja"), "{% for m in messages %");
    const file = testFile("broken", "broken.jinja", [
      { name: "loop", live: { messages: ask, tools: [WEATHER], expectToolCall: "get_weather" } },
    ]);
    const { status, out } = runJson("--endpoint", s.endpoint.url, file);
    assert.equal(status, 1);
    const f = out.files[0].cases[0].failures[0];
    assert.deepEqual([f.expectation, f.expected, f.seen], ["live.expectToolCall", "get_weather", "request refused by the server"]);
    assert.match(f.detail, /first failure \(seed 1\): 400: .*chat template/);
  });

  it("without --endpoint live cases are skipped and the summary says so (exit 0)", () => {
    const file = testFile("skip", "plain.jinja", [
      { name: "caps", expect: { caps: { supports_tools: true } } },
      { name: "loop", live: { messages: ask, tools: [WEATHER], expectToolCall: "get_weather" } },
    ]);
    const r = runCli(["test", file]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /- loop \(skipped: live case, no --endpoint given\)/);
    assert.match(r.stdout, /1 passed, 0 failed, 1 skipped \(live cases run with --endpoint URL\)/);
    const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(
      runCli(["test", "--reporter", "junit", file]).stdout,
    );
    assert.deepEqual([junit.testsuites.tests, junit.testsuites.failures, junit.testsuites.skipped], ["2", "0", "1"]);
    assert.equal(junit.testsuites.testsuite.testcase[1].skipped.message, "live case, no --endpoint given");
    assert.equal(JSON.parse(runCli(["test", "--reporter", "json", file]).stdout).files[0].cases[1].status, "skipped");
  });

  it("an endpoint that cannot be reached, or a bad live block, is an error (exit 2)", () => {
    const file = testFile("unreachable", "plain.jinja", [
      { name: "loop", live: { messages: ask, tools: [WEATHER], expectToolCall: "get_weather" } },
    ]);
    const r = runCli(["test", "--endpoint", "http://127.0.0.1:9", file]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /cannot reach http:\/\/127\.0\.0\.1:9/);
    const bad = (live: unknown, re: RegExp) => {
      const b = runCli(["test", testFile("bad", "plain.jinja", [{ name: "l", live }])]);
      assert.equal(b.status, 2, b.stdout);
      assert.match(b.stderr, re);
    };
    bad(
      { messages: ask, tools: [WEATHER], expectToolCall: "get_time" },
      /bad\.chat-template-test\.json:\d+:\d+: "expectToolCall" must name one of the case's tools \(get_weather\)/,
    );
    bad(
      { messages: ask, tools: [WEATHER], expectToolCall: "get_weather", turns: 3 },
      /"turns": 3 goes on after each call of "get_weather", so "toolResults" must say what it returns/,
    );
    bad({ messages: ask, samples: 0 }, /"samples" must be a whole number from 1 to 1000/);
    bad({ messages: [] }, /"live" needs "messages"/);
    bad(
      { messages: ask, tools: [{ type: "function", function: { name: "f", parameters: { type: "nope" } } }] },
      /the parameters schema of "f" is not a valid JSON schema/,
    );
  });
});
