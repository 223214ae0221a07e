// `ab`: the live cases of one suite run for two templates on the same endpoint, model and seeds; per
// template, the well-formed share with its 95 % interval, failures by kind, tokens and time; and the
// difference B − A with its interval.
import type { Endpoint } from "./endpointClient";
import { summarize, type LiveSummary } from "./liveCheck";
import { runSamples, type SampleResult } from "./liveRun";
import type { LiveSpec } from "./liveSpec";
import { rateDifference, wilson, type Difference, type Interval } from "./stats";
import type { Markers } from "./turnVerdict";

export interface AbTemplate {
  label: "A" | "B";
  path: string;
  text: string;
  markers: Markers;
}

export interface AbSide extends LiveSummary {
  label: "A" | "B";
  path: string;
  rate: number;
  interval: Interval;
  tokens: { prompt: number; completion: number };
  timeMs: number;
  cases: ({ name: string } & LiveSummary)[];
}

export interface AbResult {
  sides: [AbSide, AbSide];
  difference: Difference;
}

export interface AbOptions {
  /** Replaces each case's `samples`. */
  samples?: number;
  signal?: AbortSignal;
  /** After each case of each template: for a progress bar. */
  onProgress?: (done: number, total: number) => void;
  /** After each sample: which template and case, and how many of its samples are done. */
  onSample?: (template: string, caseName: string, done: number, total: number) => void;
}

export async function runAb(
  cases: { name: string; live: LiveSpec }[],
  templates: [AbTemplate, AbTemplate],
  endpoint: Endpoint,
  options: AbOptions = {},
): Promise<AbResult> {
  const sides: AbSide[] = [];
  for (const t of templates) {
    const all: SampleResult[] = [];
    const perCase: AbSide["cases"] = [];
    for (const c of cases) {
      const r = await runSamples(c.live, endpoint, {
        template: t.text,
        markers: t.markers,
        samples: options.samples,
        signal: options.signal,
        onSample: options.onSample && ((done, total) => options.onSample!(t.label, c.name, done, total)),
      });
      all.push(...r);
      perCase.push({ name: c.name, ...summarize(r) });
      options.onProgress?.(sides.length * cases.length + perCase.length, 2 * cases.length);
    }
    const s = summarize(all);
    sides.push({
      label: t.label,
      path: t.path,
      ...s,
      rate: s.wellFormed / s.samples,
      interval: wilson(s.wellFormed, s.samples),
      tokens: { prompt: sum(all, (x) => x.promptTokens), completion: sum(all, (x) => x.completionTokens) },
      timeMs: sum(all, (x) => x.ms),
      cases: perCase,
    });
  }
  const [a, b] = sides;
  return {
    sides: [a, b],
    difference: rateDifference({ successes: a.wellFormed, n: a.samples }, { successes: b.wellFormed, n: b.samples }),
  };
}

const sum = (xs: SampleResult[], f: (x: SampleResult) => number) => xs.reduce((t, x) => t + f(x), 0);
