// What the Endpoint Statistics view shows, read from the endpoint's GET /metrics (Prometheus text format
// 0.0.4, native/endpoint/llama/metrics.ts): DFlash acceptance and tokens per second by context bucket, with and
// without a draft, acceptance by draft position, the adaptive controller's choices, and how much of each prompt the
// prompt cache served (and why prompts lost it).

export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition; a line it cannot read is an error naming the line. */
export function parsePrometheus(text: string): MetricSample[] {
  const samples: MetricSample[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    const fail = (why: string) => new Error(`/metrics line ${i + 1}: ${why}: ${line.slice(0, 120)}`);
    const head = /^([A-Za-z_:][A-Za-z0-9_:]*)/.exec(line);
    if (!head) throw fail("no metric name");
    const name = head[1];
    let rest = line.slice(name.length);
    const labels: Record<string, string> = {};
    if (rest.startsWith("{")) {
      const label = /^\s*([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,?)/;
      rest = rest.slice(1);
      for (;;) {
        if (rest.trimStart().startsWith("}")) {
          rest = rest.trimStart().slice(1);
          break;
        }
        const m = label.exec(rest);
        if (!m) throw fail("malformed labels");
        labels[m[1]] = m[2].replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
        rest = rest.slice(m[0].length);
        if (!m[3] && !rest.trimStart().startsWith("}")) throw fail("malformed labels");
      }
    }
    const [value] = rest.trim().split(/\s+/); // a timestamp may follow
    const number = value === "+Inf" ? Infinity : value === "-Inf" ? -Infinity : Number(value);
    if (value === undefined || value === "" || (Number.isNaN(number) && value !== "NaN")) throw fail("no numeric value");
    samples.push({ name, labels, value: number });
  });
  return samples;
}

export const CONTEXT_BUCKETS = ["<4k", "4-16k", "16-32k", "32-64k", ">=64k"] as const;

export interface BucketFigures {
  context: (typeof CONTEXT_BUCKETS)[number];
  /** Steps with a draft and plain steps (the adaptive controller's choice, or no draft loaded). */
  steps: number;
  plainSteps: number;
  acceptance: number | null;
  meanAcceptedLength: number | null;
  /** Tokens per second of the steps with a draft (DFlash) and of the plain steps; null: none in this bucket. */
  dflashTokensPerSecond: number | null;
  plainTokensPerSecond: number | null;
}

export interface EndpointStatistics {
  /** False: the endpoint reports no DFlash figures by context (not ours, or no draft has run yet). */
  hasContextFigures: boolean;
  generatedTokens: number;
  tokensPerSecond: number;
  acceptance: number;
  buckets: BucketFigures[];
  /** Acceptance at draft positions 1, 2, …, where drafts reached them. */
  positions: { position: number; acceptance: number; drafted: number }[];
  /** Steps by tokens drafted ([0]: plain steps). */
  draftLengths: number[];
  probes: number;
  breakEven: number;
  /** The prompt cache: generations measured, their mean reused share of the prompt, prompts that lost it by cause. */
  promptCache: { generations: number; meanReused: number; divergences: { cause: string; count: number }[] };
}

export function endpointStatistics(samples: MetricSample[]): EndpointStatistics {
  const all = (name: string) => samples.filter((s) => s.name === name);
  const one = (name: string) => all(name)[0]?.value ?? 0;
  const by = (name: string, labels: Record<string, string>) =>
    all(name).find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
  const contexts = new Set(all("cts_dflash_context_steps_total").map((s) => s.labels.context));
  const buckets = CONTEXT_BUCKETS.filter((c) => contexts.has(c)).map((context): BucketFigures => {
    const steps = by("cts_dflash_context_steps_total", { context }) ?? 0;
    const plainSteps = by("cts_dflash_context_plain_steps_total", { context }) ?? 0;
    const rate = (kind: string, n: number) =>
      n > 0 ? (by("cts_dflash_context_tokens_per_second", { context, steps: kind }) ?? null) : null;
    return {
      context,
      steps,
      plainSteps,
      acceptance: steps > 0 ? (by("cts_dflash_context_acceptance", { context }) ?? null) : null,
      meanAcceptedLength: steps > 0 ? (by("cts_dflash_context_mean_accepted_length", { context }) ?? null) : null,
      dflashTokensPerSecond: rate("draft", steps),
      plainTokensPerSecond: rate("plain", plainSteps),
    };
  });
  const positions = all("cts_dflash_position_drafted_total")
    .map((s) => ({ position: Number(s.labels.position), drafted: s.value }))
    .filter((p) => Number.isInteger(p.position) && p.position > 0 && p.drafted > 0)
    .map((p) => ({ ...p, acceptance: by("cts_dflash_position_acceptance", { position: String(p.position) }) ?? 0 }))
    .sort((a, b) => a.position - b.position);
  const draftLengths: number[] = [];
  for (const s of all("cts_dflash_draft_length_steps_total")) {
    const n = Number(s.labels.drafted);
    if (Number.isInteger(n) && n >= 0 && n < 1024) draftLengths[n] = s.value;
  }
  return {
    hasContextFigures: buckets.some((b) => b.steps + b.plainSteps > 0),
    generatedTokens: one("cts_generated_tokens_total"),
    tokensPerSecond: one("cts_tokens_per_second"),
    acceptance: one("cts_dflash_acceptance"),
    buckets: buckets.filter((b) => b.steps + b.plainSteps > 0),
    positions,
    draftLengths: Array.from(draftLengths, (n) => n ?? 0),
    probes: one("cts_dflash_probes_total"),
    breakEven: one("cts_dflash_break_even"),
    promptCache: {
      generations: one("cts_prompt_cache_reused_ratio_count"),
      meanReused:
        one("cts_prompt_cache_reused_ratio_count") > 0
          ? one("cts_prompt_cache_reused_ratio_sum") / one("cts_prompt_cache_reused_ratio_count")
          : 0,
      divergences: all("cts_prompt_cache_divergence_total").map((x) => ({ cause: x.labels.cause ?? "", count: x.value })),
    },
  };
}
