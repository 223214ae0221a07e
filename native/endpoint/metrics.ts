// Counters for GET /metrics, in Prometheus' text format (version 0.0.4).
import type { GenerateStats } from "../engine/types";

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

  countRequest(route: string, status: number): void {
    bump(this.requests, { route, status: String(status) });
  }

  /** finish: why the generation ended (stop, length, tool_calls, abort). */
  recordGeneration(api: string, finish: string, s: GenerateStats): void {
    bump(this.generations, { api, finish });
    this.promptTokens += s.promptTokens;
    this.cachedTokens += s.cachedTokens;
    this.generatedTokens += s.generatedTokens;
    this.generateSeconds += s.generateMs / 1000;
    this.promptSeconds += s.promptMs / 1000;
    this.drafted += s.drafted;
    this.accepted += s.accepted;
    this.draftSteps += s.draftSteps;
    if (s.generatedTokens > 0) this.lastTokensPerSecond = s.tokensPerSecond;
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
    metric("cts_generations_total", "counter", "Generations by API and finish reason (stop, length, tool_calls, abort).", table(this.generations));
    metric("cts_prompt_tokens_total", "counter", "Prompt tokens of all generations.", one(this.promptTokens));
    metric("cts_prompt_tokens_cached_total", "counter", "Prompt tokens reused from the KV cache instead of evaluated.", one(this.cachedTokens));
    metric("cts_prompt_seconds_total", "counter", "Time spent evaluating prompts.", one(this.promptSeconds));
    metric("cts_generated_tokens_total", "counter", "Generated tokens.", one(this.generatedTokens));
    metric("cts_generation_seconds_total", "counter", "Time spent generating tokens.", one(this.generateSeconds));
    metric("cts_tokens_per_second", "gauge", "Generated tokens per second over all generations.", one(this.generateSeconds > 0 ? this.generatedTokens / this.generateSeconds : 0));
    metric("cts_last_tokens_per_second", "gauge", "Generated tokens per second of the last generation.", one(this.lastTokensPerSecond));
    metric("cts_dflash_drafted_tokens_total", "counter", "Tokens proposed by the DFlash draft.", one(this.drafted));
    metric("cts_dflash_accepted_tokens_total", "counter", "Draft tokens the target accepted.", one(this.accepted));
    metric("cts_dflash_steps_total", "counter", "Verification steps that had a draft.", one(this.draftSteps));
    metric("cts_dflash_acceptance", "gauge", "Accepted / drafted tokens over all generations.", one(this.drafted ? this.accepted / this.drafted : 0));
    metric("cts_dflash_mean_accepted_length", "gauge", "Accepted draft tokens per verification step over all generations.", one(this.draftSteps ? this.accepted / this.draftSteps : 0));
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
