// DFlash figures by context bucket, draft position and controller choice: /metrics (cumulative), the
// response's timings (per request), the once-per-run below-break-even warning, and what the editor reads back.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { GenerateStats } from "../../../native/engine/types";
import { belowBreakEven, timings } from "../../../native/endpoint/llama/dflash";
import { Metrics } from "../../../native/endpoint/llama/metrics";
import { statsOf } from "../../../client/src/endpoint/stats";

const gauges = { queueWaiting: 0, queueActive: 0, queueRejected: 0, modelReady: 1 };

function stats(over: Partial<GenerateStats> = {}): GenerateStats {
  return {
    speculative: true,
    promptTokens: 4000,
    promptEvaluated: 4000,
    promptRestored: 0,
    cachedTokens: 0,
    promptMs: 10,
    promptTokensPerSecond: 1,
    generatedTokens: 200,
    generateMs: 100,
    tokensPerSecond: 2000,
    targetDecodes: 20,
    draftSteps: 12,
    drafted: 36,
    accepted: 18,
    acceptance: 0.5,
    acceptanceAt: [0.75, 0.5, 0.25],
    draftedAt: [12, 12, 12],
    acceptedAt: [9, 6, 3],
    meanAcceptedLength: 1.5,
    draftMs: 1,
    verifyMs: 1,
    sampleMs: 1,
    controller: { adaptive: true, choices: [8, 0, 0, 12], probes: 2, lastChoice: 3, breakEven: 1.4 },
    byContext: [
      {
        bucket: "<4k",
        steps: 10,
        plainSteps: 2,
        drafted: 30,
        accepted: 16,
        acceptance: 16 / 30,
        meanAcceptedLength: 1.6,
        stepMs: 52,
        plainMs: 2,
      },
      {
        bucket: "4-16k",
        steps: 2,
        plainSteps: 6,
        drafted: 6,
        accepted: 2,
        acceptance: 1 / 3,
        meanAcceptedLength: 1,
        stepMs: 8,
        plainMs: 12,
      },
      { bucket: "16-32k", steps: 0, plainSteps: 0, drafted: 0, accepted: 0, acceptance: 0, meanAcceptedLength: 0, stepMs: 0, plainMs: 0 },
    ],
    ...over,
  };
}

const sample = (text: string, line: string) => {
  const hit = text.split("\n").find((l) => l.startsWith(line + " "));
  assert.ok(hit, `no sample ${line}`);
  return Number(hit.slice(line.length + 1));
};

describe("DFlash statistics", () => {
  test("/metrics sums the buckets, positions and draft lengths over generations", () => {
    const m = new Metrics();
    m.recordGeneration("openai", "length", stats());
    m.recordGeneration("openai", "length", stats());
    const text = m.render(gauges);
    assert.equal(sample(text, 'cts_dflash_context_steps_total{context="<4k"}'), 20);
    assert.equal(sample(text, 'cts_dflash_context_plain_steps_total{context="4-16k"}'), 12);
    assert.equal(sample(text, 'cts_dflash_context_drafted_tokens_total{context="4-16k"}'), 12);
    assert.equal(sample(text, 'cts_dflash_context_acceptance{context="<4k"}'), 32 / 60);
    assert.equal(sample(text, 'cts_dflash_context_mean_accepted_length{context="4-16k"}'), 1);
    assert.equal(sample(text, 'cts_dflash_context_steps_total{context="16-32k"}'), 0);
    assert.equal(sample(text, 'cts_dflash_position_drafted_total{position="1"}'), 24);
    assert.equal(sample(text, 'cts_dflash_position_acceptance{position="3"}'), 0.25);
    assert.equal(sample(text, 'cts_dflash_draft_length_steps_total{drafted="0"}'), 16);
    assert.equal(sample(text, 'cts_dflash_draft_length_steps_total{drafted="3"}'), 24);
    assert.equal(sample(text, "cts_dflash_probes_total"), 4);
    assert.equal(sample(text, "cts_dflash_draft_length"), 3);
    assert.equal(sample(text, "cts_dflash_break_even"), 1.4);
    // tokens per second with and without a draft by bucket: (10 steps + 16 accepted) in 52 ms; 6 plain steps in 12 ms
    assert.equal(sample(text, 'cts_dflash_context_seconds_total{context="<4k",steps="draft"}'), 0.104);
    assert.equal(sample(text, 'cts_dflash_context_tokens_per_second{context="<4k",steps="draft"}'), 500);
    assert.equal(sample(text, 'cts_dflash_context_tokens_per_second{context="4-16k",steps="plain"}'), 500);
    assert.equal(sample(text, 'cts_dflash_context_tokens_per_second{context="16-32k",steps="plain"}'), 0);
  });

  test("the response's timings carry the controller's choice and the buckets it used", () => {
    const d = (timings(stats()) as { dflash: Record<string, unknown> }).dflash;
    assert.deepEqual([d.adaptive, d.draft_length, d.draft_lengths, d.probes, d.break_even], [true, 3, [8, 0, 0, 12], 2, 1.4]);
    assert.deepEqual(d.by_context, [
      { context: "<4k", steps: 10, plain_steps: 2, drafted: 30, accepted: 16, acceptance: 16 / 30, mean_accepted_length: 1.6 },
      { context: "4-16k", steps: 2, plain_steps: 6, drafted: 6, accepted: 2, acceptance: 1 / 3, mean_accepted_length: 1 },
    ]);
    const plain = (
      timings(stats({ speculative: false, controller: undefined, byContext: undefined })) as { dflash: Record<string, unknown> }
    ).dflash;
    assert.equal(plain.draft_length, undefined);
    // the editor reads them back for the status bar
    const back = statsOf({ timings: timings(stats()) })!;
    assert.deepEqual(back.dflash, {
      adaptive: true,
      draftLength: 3,
      breakEven: 1.4,
      byContext: [
        { context: "<4k", acceptance: 16 / 30, meanAcceptedLength: 1.6, plainSteps: 2 },
        { context: "4-16k", acceptance: 1 / 3, meanAcceptedLength: 1, plainSteps: 6 },
      ],
    });
  });

  test("below break-even: a warning once per run, with the context length", () => {
    const warnings: string[] = [];
    const m = new Metrics((w) => warnings.push(`${w.context} ${w.breakEven} ${w.message}`));
    m.recordGeneration("openai", "stop", stats());
    assert.deepEqual(warnings, [], "above break-even");
    const low = stats({ acceptance: 0.01, controller: { adaptive: true, choices: [20], probes: 0, lastChoice: 0, breakEven: 0.3 } });
    m.recordGeneration("openai", "stop", low);
    m.recordGeneration("anthropic", "stop", low);
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0],
      /^4200 0\.3 DFlash is below break-even at 4200 tokens of context: the best draft length is estimated at 30% of plain decoding's speed \(acceptance 1\.0%\); the adaptive draft length decodes plainly/,
    );
    assert.equal(
      belowBreakEven(stats({ controller: { adaptive: false, choices: [0, 0, 0, 20], probes: 0, lastChoice: 3, breakEven: 0 } })),
      null,
      "0: not measured yet",
    );
  });
});
