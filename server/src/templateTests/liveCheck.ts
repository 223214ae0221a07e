// A live case's verdict: its samples on the endpoint, and a failure when fewer than `minWellFormed` of
// them are well formed, with the count per failure kind and the first failing sample's detail.
import type { Endpoint } from "./endpointClient";
import type { Failure } from "./failure";
import type { LiveSpec } from "./liveSpec";
import { runSamples, type SampleResult } from "./liveRun";
import { FAILURE_KINDS, FAILURE_LABELS, type FailureKind, type Markers } from "./turnVerdict";

export interface LiveContext {
  endpoint: Endpoint;
  /** The template under test, sent with each request where the server takes it. */
  template: string;
  markers: Markers;
}

export interface LiveSummary {
  samples: number;
  wellFormed: number;
  failures: Partial<Record<FailureKind, number>>;
}

export function summarize(samples: readonly SampleResult[]): LiveSummary {
  const failures: Partial<Record<FailureKind, number>> = {};
  for (const s of samples) if (s.kind) failures[s.kind] = (failures[s.kind] ?? 0) + 1;
  return { samples: samples.length, wellFormed: samples.filter((s) => s.wellFormed).length, failures };
}

export function byKindText(failures: LiveSummary["failures"]): string {
  return FAILURE_KINDS.filter((k) => failures[k])
    .map((k) => `${FAILURE_LABELS[k]} ×${failures[k]}`)
    .join(", ");
}

export async function checkLive(spec: LiveSpec, ctx: LiveContext): Promise<{ failures: Failure[]; summary: LiveSummary }> {
  const samples = await runSamples(spec, ctx.endpoint, { template: ctx.template, markers: ctx.markers });
  const summary = summarize(samples);
  const rate = summary.wellFormed / summary.samples;
  if (rate >= spec.minWellFormed) return { failures: [], summary };
  const first = samples.find((s) => !s.wellFormed)!;
  const where = `seed ${first.seed}${spec.turns > 1 ? `, turn ${first.turn}` : ""}`;
  const detail = `${summary.wellFormed}/${summary.samples} samples well formed; ${byKindText(summary.failures)}\nfirst failure (${where}): ${first.detail}`;
  const failure: Failure =
    summary.samples === 1
      ? {
          expectation: spec.expectToolCall ? "live.expectToolCall" : "live",
          expected: spec.expectToolCall ?? "a well-formed answer",
          seen: FAILURE_LABELS[first.kind!],
          detail,
        }
      : { expectation: "live.minWellFormed", expected: spec.minWellFormed, seen: Math.round(rate * 1000) / 1000, detail };
  return { failures: [failure], summary };
}
