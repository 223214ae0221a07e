// Counters for GET /metrics, in Prometheus' text format (version 0.0.4).
import type { ContextBucket, ContextBucketTotals, GenerateStats } from "../../engine";
import { belowBreakEven, type BreakEvenWarning } from "./dflash";
import { DIVERGENCE_CAUSES, type DivergenceCause } from "../chat/promptHistory";

/** Upper bounds of the reused-share histogram's buckets. */
const REUSED_BUCKETS = [0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 1];

export interface Gauges {
  queueWaiting: number;
  queueActive: number;
  queueRejected: number;
  /** 0 loading, 1 ready, -1 failed. */
  modelReady: number;
}

type Labels = Record<string, string>;

const escape = (v: string) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
const labelText = (l: Labels) => {
  const parts = Object.entries(l).map(([k, v]) => `${k}="${escape(v)}"`);
  return parts.length ? `{${parts.join(",")}}` : "";
};

export class Metrics {
  private readonly requests = new Map<string, { labels: Labels; n: number }>();
  private readonly generations = new Map<string, { labels: Labels; n: number }>();
  private promptTokens = 0;
  private cachedTokens = 0;
  private generatedTokens = 0;
  private generateSeconds = 0;
  private promptSeconds = 0;
  private drafted = 0;
  private accepted = 0;
  private draftSteps = 0;
  private lastTokensPerSecond = 0;
  private readonly byContext = new Map<ContextBucket, ContextBucketTotals>();
  private draftedAt: number[] = [];
  private acceptedAt: number[] = [];
  private readonly draftLengths = new Map<number, number>(); // tokens drafted → steps
  private probes = 0;
  private lastDraftLength = 0;
  private lastBreakEven = 0;
  private warned = false;
  private billingHeadersDropped = 0;
  private readonly reusedBuckets = REUSED_BUCKETS.map(() => 0);
  private reusedSum = 0;
  private reusedCount = 0;
  private readonly divergences = new Map<DivergenceCause, number>(DIVERGENCE_CAUSES.map((c) => [c, 0]));

  /** onBelowBreakEven: called once per endpoint run, after the first generation that ended below break-even. */
  constructor(private readonly onBelowBreakEven: (w: BreakEvenWarning) => void = () => {}) {}

  countRequest(route: string, status: number): void {
    bump(this.requests, { route, status: String(status) });
  }

  countDivergence(cause: DivergenceCause): void {
    this.divergences.set(cause, (this.divergences.get(cause) ?? 0) + 1);
  }

  countBillingHeadersDropped(n: number): void {
    this.billingHeadersDropped += n;
  }

  /** finish: why the generation ended (stop, length, tool_calls, abort). */
  recordGeneration(api: string, finish: string, s: GenerateStats): void {
    bump(this.generations, { api, finish });
    this.promptTokens += s.promptTokens;
    this.cachedTokens += s.cachedTokens;
    if (s.promptTokens > 0) {
      const share = s.cachedTokens / s.promptTokens;
      REUSED_BUCKETS.forEach((le, i) => share <= le && this.reusedBuckets[i]++);
      this.reusedSum += share;
      this.reusedCount++;
    }
    this.generatedTokens += s.generatedTokens;
    this.generateSeconds += s.generateMs / 1000;
    this.promptSeconds += s.promptMs / 1000;
    this.drafted += s.drafted;
    this.accepted += s.accepted;
    this.draftSteps += s.draftSteps;
    if (s.generatedTokens > 0) this.lastTokensPerSecond = s.tokensPerSecond;
    for (const b of s.byContext ?? []) {
      const e = this.byContext.get(b.bucket) ?? { steps: 0, plainSteps: 0, drafted: 0, accepted: 0, stepMs: 0, plainMs: 0 };
      this.byContext.set(b.bucket, {
        steps: e.steps + b.steps,
        plainSteps: e.plainSteps + b.plainSteps,
        drafted: e.drafted + b.drafted,
        accepted: e.accepted + b.accepted,
        stepMs: e.stepMs + b.stepMs,
        plainMs: e.plainMs + b.plainMs,
      });
    }
    s.draftedAt.forEach((n, i) => (this.draftedAt[i] = (this.draftedAt[i] ?? 0) + n));
    s.acceptedAt.forEach((n, i) => (this.acceptedAt[i] = (this.acceptedAt[i] ?? 0) + n));
    if (s.controller) {
      s.controller.choices.forEach((n, len) => n && this.draftLengths.set(len, (this.draftLengths.get(len) ?? 0) + n));
      this.probes += s.controller.probes;
      this.lastDraftLength = s.controller.lastChoice;
      if (s.controller.breakEven > 0) this.lastBreakEven = s.controller.breakEven;
    }
    const warning = this.warned ? null : belowBreakEven(s);
    if (warning) {
      this.warned = true;
      this.onBelowBreakEven(warning);
    }
  }

  render(g: Gauges): string {
    const out: string[] = [];
    const metric = (name: string, type: "counter" | "gauge", help: string, samples: { labels?: Labels; value: number }[]) => {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      for (const s of samples) out.push(`${name}${labelText(s.labels ?? {})} ${Number.isFinite(s.value) ? s.value : 0}`);
    };
    const one = (value: number) => [{ value }];
    const table = (m: Map<string, { labels: Labels; n: number }>) => [...m.values()].map((e) => ({ labels: e.labels, value: e.n }));
    metric("cts_requests_total", "counter", "HTTP requests by route and status.", table(this.requests));
    metric(
      "cts_generations_total",
      "counter",
      "Generations by API and finish reason (stop, length, tool_calls, abort).",
      table(this.generations),
    );
    metric("cts_prompt_tokens_total", "counter", "Prompt tokens of all generations.", one(this.promptTokens));
    metric(
      "cts_prompt_tokens_cached_total",
      "counter",
      "Prompt tokens reused from the KV cache instead of evaluated.",
      one(this.cachedTokens),
    );
    out.push(
      "# HELP cts_prompt_cache_reused_ratio Share of each generation's prompt reused from the KV cache.",
      "# TYPE cts_prompt_cache_reused_ratio histogram",
      ...REUSED_BUCKETS.map((le, i) => `cts_prompt_cache_reused_ratio_bucket{le="${le}"} ${this.reusedBuckets[i]}`),
      `cts_prompt_cache_reused_ratio_bucket{le="+Inf"} ${this.reusedCount}`,
      `cts_prompt_cache_reused_ratio_sum ${this.reusedSum}`,
      `cts_prompt_cache_reused_ratio_count ${this.reusedCount}`,
    );
    metric(
      "cts_prompt_cache_divergence_total",
      "counter",
      "Prompts that kept less than the longest cached prompt, by cause (client_prefix_changed, earlier_turn_rerendered, new_conversation).",
      [...this.divergences].map(([cause, value]) => ({ labels: { cause }, value })),
    );
    metric("cts_prompt_seconds_total", "counter", "Time spent evaluating prompts.", one(this.promptSeconds));
    metric("cts_generated_tokens_total", "counter", "Generated tokens.", one(this.generatedTokens));
    metric("cts_generation_seconds_total", "counter", "Time spent generating tokens.", one(this.generateSeconds));
    metric(
      "cts_tokens_per_second",
      "gauge",
      "Generated tokens per second over all generations.",
      one(this.generateSeconds > 0 ? this.generatedTokens / this.generateSeconds : 0),
    );
    metric("cts_last_tokens_per_second", "gauge", "Generated tokens per second of the last generation.", one(this.lastTokensPerSecond));
    metric("cts_dflash_drafted_tokens_total", "counter", "Tokens proposed by the DFlash draft.", one(this.drafted));
    metric("cts_dflash_accepted_tokens_total", "counter", "Draft tokens the target accepted.", one(this.accepted));
    metric("cts_dflash_steps_total", "counter", "Verification steps that had a draft.", one(this.draftSteps));
    metric(
      "cts_dflash_acceptance",
      "gauge",
      "Accepted / drafted tokens over all generations.",
      one(this.drafted ? this.accepted / this.drafted : 0),
    );
    metric(
      "cts_dflash_mean_accepted_length",
      "gauge",
      "Accepted draft tokens per verification step over all generations.",
      one(this.draftSteps ? this.accepted / this.draftSteps : 0),
    );
    const buckets = [...this.byContext.entries()];
    const ctx = (f: (e: ContextBucketTotals) => number) => buckets.map(([context, e]) => ({ labels: { context }, value: f(e) }));
    // each bucket twice: its steps with a draft (a step yields its accepted tokens and one more) and its plain steps
    const bySteps = (f: (tokens: number, ms: number) => number) =>
      buckets.flatMap(([context, e]) => [
        { labels: { context, steps: "draft" }, value: f(e.steps + e.accepted, e.stepMs) },
        { labels: { context, steps: "plain" }, value: f(e.plainSteps, e.plainMs) },
      ]);
    metric(
      "cts_dflash_context_steps_total",
      "counter",
      "Steps with a draft, by context length bucket (<4k, 4-16k, 16-32k, 32-64k, >=64k).",
      ctx((e) => e.steps),
    );
    metric(
      "cts_dflash_context_plain_steps_total",
      "counter",
      "Steps the adaptive draft length left without a draft, by context bucket.",
      ctx((e) => e.plainSteps),
    );
    metric(
      "cts_dflash_context_drafted_tokens_total",
      "counter",
      "Drafted tokens by context bucket.",
      ctx((e) => e.drafted),
    );
    metric(
      "cts_dflash_context_accepted_tokens_total",
      "counter",
      "Accepted draft tokens by context bucket.",
      ctx((e) => e.accepted),
    );
    metric(
      "cts_dflash_context_acceptance",
      "gauge",
      "Accepted / drafted tokens by context bucket.",
      ctx((e) => (e.drafted ? e.accepted / e.drafted : 0)),
    );
    metric(
      "cts_dflash_context_mean_accepted_length",
      "gauge",
      "Accepted draft tokens per step with a draft, by context bucket.",
      ctx((e) => (e.steps ? e.accepted / e.steps : 0)),
    );
    metric(
      "cts_dflash_context_seconds_total",
      "counter",
      "Time in steps with a draft (draft, verify, sampling) and in plain steps, by context bucket.",
      bySteps((_, ms) => ms / 1000),
    );
    metric(
      "cts_dflash_context_tokens_per_second",
      "gauge",
      "Tokens per second of the steps with a draft and of the plain steps, by context bucket (0: no such steps).",
      bySteps((tokens, ms) => (ms > 0 ? (tokens * 1000) / ms : 0)),
    );
    const pos = (f: (i: number) => number) => this.draftedAt.map((_, i) => ({ labels: { position: String(i + 1) }, value: f(i) }));
    metric(
      "cts_dflash_position_drafted_total",
      "counter",
      "Drafts that reached draft position N.",
      pos((i) => this.draftedAt[i]),
    );
    metric(
      "cts_dflash_position_accepted_total",
      "counter",
      "Drafts whose token at position N was accepted.",
      pos((i) => this.acceptedAt[i]),
    );
    metric(
      "cts_dflash_position_acceptance",
      "gauge",
      "Accepted / drafted at draft position N.",
      pos((i) => (this.draftedAt[i] ? this.acceptedAt[i] / this.draftedAt[i] : 0)),
    );
    const lengths = [...this.draftLengths.entries()].sort(([a], [b]) => a - b);
    metric(
      "cts_dflash_draft_length_steps_total",
      "counter",
      "Steps by the number of tokens the controller drafted (0: a plain step).",
      lengths.map(([len, n]) => ({ labels: { drafted: String(len) }, value: n })),
    );
    metric(
      "cts_dflash_probes_total",
      "counter",
      "Full blocks drafted to re-check a draft the adaptive controller had cut short.",
      one(this.probes),
    );
    metric("cts_dflash_draft_length", "gauge", "Tokens the last step drafted.", one(this.lastDraftLength));
    metric(
      "cts_dflash_break_even",
      "gauge",
      "Estimated speed of the best draft length over plain decoding at the last generation's context (< 1: below break-even).",
      one(this.lastBreakEven),
    );
    metric(
      "cts_client_billing_header_dropped_total",
      "counter",
      "Claude Code x-anthropic-billing-header system blocks dropped before rendering (they would defeat the prompt cache).",
      one(this.billingHeadersDropped),
    );
    metric("cts_queue_active", "gauge", "Generations running (at most 1).", one(g.queueActive));
    metric("cts_queue_waiting", "gauge", "Requests waiting for the generation slot.", one(g.queueWaiting));
    metric("cts_queue_rejected_total", "counter", "Requests refused with 429 because the wait list was full.", one(g.queueRejected));
    metric("cts_model_ready", "gauge", "1 when the model is loaded, 0 while loading, -1 when loading failed.", one(g.modelReady));
    metric("process_resident_memory_bytes", "gauge", "Resident memory of the endpoint process.", one(process.memoryUsage.rss()));
    return out.join("\n") + "\n";
  }
}

function bump(m: Map<string, { labels: Labels; n: number }>, labels: Labels): void {
  const key = JSON.stringify(labels);
  const e = m.get(key);
  if (e) e.n++;
  else m.set(key, { labels, n: 1 });
}
