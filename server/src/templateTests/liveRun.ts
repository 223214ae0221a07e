// Runs a live case's samples on an endpoint. A sample is one conversation of `turns` requests: after each
// well-formed call the tool's scripted result is appended and the model goes on. A sample is well formed
// when every turn is; the first turn that is not ends it, with its failure kind. Sample i uses seed i + 1,
// so two templates compared on one model get the same seeds.
import { chatCompletion, type Endpoint } from "./endpointClient";
import type { LiveSpec } from "./liveSpec";
import { judgeTurn, type AssistantMessage, type FailureKind, type Markers } from "./turnVerdict";

export interface SampleResult {
  seed: number;
  wellFormed: boolean;
  kind?: FailureKind;
  /** 1-based turn that failed. */
  turn?: number;
  detail?: string;
  promptTokens: number;
  completionTokens: number;
  ms: number;
}

export interface LiveRunOptions {
  /** The template text, sent as `chat_template` where the server takes it. */
  template?: string;
  markers: Markers;
  /** Overrides the case's `samples`. */
  samples?: number;
  /** Stops between samples (the editor's Cancel); the samples so far are returned. */
  signal?: AbortSignal;
  /** After each sample: for a progress line. */
  onSample?: (done: number, total: number) => void;
}

export async function runSamples(spec: LiveSpec, endpoint: Endpoint, options: LiveRunOptions): Promise<SampleResult[]> {
  const out: SampleResult[] = [];
  const n = options.samples ?? spec.samples;
  // one after another: a local server runs one generation at a time, and timings stay per request
  for (let i = 0; i < n && !options.signal?.aborted; i++) {
    out.push(await runSample(spec, endpoint, options, i + 1));
    options.onSample?.(i + 1, n);
  }
  return out;
}

async function runSample(spec: LiveSpec, endpoint: Endpoint, options: LiveRunOptions, seed: number): Promise<SampleResult> {
  const messages: unknown[] = structuredClone(spec.messages);
  const result: SampleResult = { seed, wellFormed: true, promptTokens: 0, completionTokens: 0, ms: 0 };
  for (let turn = 1; turn <= spec.turns; turn++) {
    const c = await chatCompletion(endpoint, {
      messages,
      ...(spec.tools.length ? { tools: spec.tools } : {}),
      seed,
      max_tokens: spec.maxTokens,
      ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}),
      ...(options.template !== undefined && endpoint.takesTemplate ? { chat_template: options.template } : {}),
    });
    result.promptTokens += c.promptTokens;
    result.completionTokens += c.completionTokens;
    result.ms += c.ms;
    if (!c.message) return { ...result, wellFormed: false, kind: "request_refused", turn, detail: `${c.status}: ${c.error}` };
    const message = c.message as AssistantMessage;
    const v = judgeTurn(message, spec, options.markers);
    if (!v.ok) return { ...result, wellFormed: false, kind: v.kind, turn, detail: v.detail };
    const calls = message.tool_calls ?? [];
    if (!calls.length) break; // a final answer ends the conversation early
    messages.push({ role: "assistant", content: message.content ?? "", tool_calls: calls });
    for (const call of calls) {
      const r = spec.toolResults[call.function!.name!];
      messages.push({ role: "tool", tool_call_id: call.id, content: typeof r === "string" ? r : JSON.stringify(r ?? null) });
    }
  }
  return result;
}
