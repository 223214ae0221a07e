// The Endpoint Statistics view's data model (read from the endpoint's own /metrics text) and its page.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { GenerateStats } from "../../../native/engine/types";
import { Metrics } from "../../../native/endpoint/llama/metrics";
import { endpointStatistics, parsePrometheus } from "../../../client/src/endpoint/statisticsModel";
import { barChart, statisticsPage } from "../../../client/src/endpoint/statisticsView";

const gauges = { queueWaiting: 0, queueActive: 0, queueRejected: 0, modelReady: 1 };
const bucket = (b: string, steps: number, plainSteps: number, drafted: number, accepted: number, stepMs: number, plainMs: number) => ({
  bucket: b as "<4k",
  steps,
  plainSteps,
  drafted,
  accepted,
  acceptance: drafted ? accepted / drafted : 0,
  meanAcceptedLength: steps ? accepted / steps : 0,
  stepMs,
  plainMs,
});

function generation(): GenerateStats {
  return {
    speculative: true,
    promptTokens: 3000,
    promptEvaluated: 3000,
    promptRestored: 0,
    cachedTokens: 0,
    promptMs: 10,
    promptTokensPerSecond: 1,
    generatedTokens: 300,
    generateMs: 200,
    tokensPerSecond: 1500,
    targetDecodes: 100,
    draftSteps: 20,
    drafted: 300,
    accepted: 150,
    acceptance: 0.5,
    acceptanceAt: [1, 0.5],
    draftedAt: [20, 10],
    acceptedAt: [20, 5],
    meanAcceptedLength: 7.5,
    draftMs: 1,
    verifyMs: 1,
    sampleMs: 1,
    controller: { adaptive: true, choices: [80, 0, 20], probes: 3, lastChoice: 0, breakEven: 0.8 },
    byContext: [
      bucket("<4k", 20, 10, 300, 150, 85, 20), // (20 + 150) tokens in 85 ms; 10 plain in 20 ms
      bucket("4-16k", 0, 70, 0, 0, 0, 35),
      bucket("16-32k", 0, 0, 0, 0, 0, 0),
    ],
  };
}

describe("Endpoint Statistics", () => {
  test("reads acceptance and tokens per second by context, with and without a draft, from the endpoint's /metrics", () => {
    const m = new Metrics();
    m.recordGeneration("openai", "length", generation());
    m.recordGeneration("openai", "length", generation());
    const s = endpointStatistics(parsePrometheus(m.render(gauges)));
    assert.equal(s.hasContextFigures, true);
    assert.deepEqual(s.buckets, [
      {
        context: "<4k",
        steps: 40,
        plainSteps: 20,
        acceptance: 0.5,
        meanAcceptedLength: 7.5,
        dflashTokensPerSecond: 2000,
        plainTokensPerSecond: 500,
      },
      {
        context: "4-16k",
        steps: 0,
        plainSteps: 140,
        acceptance: null,
        meanAcceptedLength: null,
        dflashTokensPerSecond: null,
        plainTokensPerSecond: 2000,
      },
    ]);
    assert.deepEqual(s.positions, [
      { position: 1, drafted: 40, acceptance: 1 },
      { position: 2, drafted: 20, acceptance: 0.5 },
    ]);
    assert.deepEqual(s.draftLengths, [160, 0, 40]);
    assert.deepEqual([s.generatedTokens, s.probes, s.breakEven], [600, 6, 0.8]);
  });

  test("the prompt cache: the mean reused share of each prompt, and the prompts that lost it by cause", () => {
    const m = new Metrics();
    m.recordGeneration("openai", "length", generation());
    m.countDivergence("earlier_turn_rerendered");
    const s = endpointStatistics(parsePrometheus(m.render(gauges)));
    const g = generation();
    assert.deepEqual(s.promptCache, {
      generations: 1,
      meanReused: g.cachedTokens / g.promptTokens,
      divergences: [
        { cause: "client_prefix_changed", count: 0 },
        { cause: "earlier_turn_rerendered", count: 1 },
        { cause: "new_conversation", count: 0 },
      ],
    });
    const page = statisticsPage({ kind: "figures", url: "http://h", stats: s, updated: new Date(0) }, "n");
    assert.match(
      page,
      /Prompt cache: \d+% of each prompt reused on average over 1 generations; prompts that lost it: earlier turn rerendered 1\./,
    );
  });

  test("an endpoint without our DFlash figures (another server, or no draft yet) has none to chart", () => {
    const s = endpointStatistics(parsePrometheus('# HELP vllm:num_requests_running x\nvllm:num_requests_running{model_name="m"} 0\n'));
    assert.equal(s.hasContextFigures, false);
    assert.deepEqual(s.buckets, []);
    assert.match(
      statisticsPage({ kind: "figures", url: "http://h", stats: s, updated: new Date() }, "n"),
      /has not reported DFlash figures/,
    );
  });

  test("a line of /metrics it cannot read is an error that names the line", () => {
    assert.deepEqual(parsePrometheus('a{x="1\\"q",y="2"} 3 1700000000\nb 4e-3\n'), [
      { name: "a", labels: { x: '1"q', y: "2" }, value: 3 },
      { name: "b", labels: {}, value: 0.004 },
    ]);
    assert.throws(() => parsePrometheus("# ok\nx 1\ny{a=1} 2"), /\/metrics line 3: malformed labels/);
    assert.throws(() => parsePrometheus("x 1\n\nz abc"), /\/metrics line 3: no numeric value/);
    assert.throws(() => parsePrometheus("{} 1"), /line 1: no metric name/);
  });

  test("draws its charts as inline SVG under a policy that loads nothing", () => {
    const m = new Metrics();
    m.recordGeneration("openai", "length", generation());
    const stats = endpointStatistics(parsePrometheus(m.render(gauges)));
    const page = statisticsPage({ kind: "figures", url: "http://127.0.0.1:8080", stats, updated: new Date(0) }, "NONCE");
    assert.match(page, /content="default-src 'none'; style-src 'nonce-NONCE'; script-src 'nonce-NONCE'"/);
    assert.doesNotMatch(page.replace("http://127.0.0.1:8080", ""), /https?:\/\/|src=/, "no remote or loaded resource");
    assert.doesNotMatch(page, /style="/, "no inline style attribute, which the policy would block");
    assert.equal(page.match(/<svg /g)?.length, 3, "tokens/s, acceptance by context, acceptance by position");
    assert.match(page, /<title>DFlash, &lt;4k: 2000<\/title>/);
    assert.match(page, /<title>Plain, 4-16k: 2000<\/title>/);
    assert.match(page, /<title>Accepted \/ drafted, &lt;4k: 50%<\/title>/);
    assert.match(page, /<tr><th scope="row">4-16k<\/th><td>0<\/td><td>70<\/td><td>–<\/td>/);
    assert.match(statisticsPage({ kind: "message", text: "No <endpoint>" }, "n"), /No &lt;endpoint&gt;/);
  });

  test("a bar's height is its value over the axis maximum; a missing value draws no bar", () => {
    const svg = barChart({
      title: "t",
      categories: ["a", "b"],
      series: [{ name: "s", color: "blue", values: [0.5, null] }],
      format: String,
      max: 1,
    });
    const bars = [...svg.matchAll(/<rect x="[\d.]+" y="[\d.]+" width="[\d.]+" height="([\d.]+)" class="bar blue"><title>/g)].map((r) =>
      Number(r[1]),
    );
    assert.deepEqual(bars, [84], "half of the 168-pixel plot");
    assert.match(svg, />–<\/text>/);
  });
});
