// `chat-template bench --compare-llama`: the engine against node-llama-cpp's own LlamaContext on the same GGUF,
// threads and context, at several prompt lengths. Ours is measured twice, through the engine alone and through
// a real endpoint (template, tokenizer and HTTP included); llama.cpp at each of its settings, keeping its best
// figure per column, so a ratio >= 1 means we match llama.cpp as its best-tuned user runs it.
import { UsageError } from "../../server/src/commandLine";
import { Engine, LLAMA_PACKAGE_VERSION, type LoadOptions } from "../engine";
import { startEndpointChild } from "./endpointRun";
import { runLlamaContext, type LlamaSetting, type RunFigures } from "./llamaContextRun";

export interface CompareOptions {
  target: string;
  /** With a draft, the engine is measured once more with it loaded (DFlash decoding). */
  draft?: string;
  prompts: number[];
  tokens: number;
  threads?: number;
  gpuLayers: number;
}

export interface ComparePoint {
  prompt: number;
  ours_prefill: number;
  llama_prefill: number;
  ours_decode: number;
  llama_decode: number;
  endpoint_prefill: number;
  endpoint_ttft_ms: number;
  llama_ttft_ms: number;
  draft_prefill?: number;
  draft_decode?: number;
  /** The llama.cpp settings that gave its best prefill and its best decode. */
  llama_best_prefill: string;
  llama_best_decode: string;
}

export const DEFAULT_PROMPTS = [1024, 8192, 32768];

/** The settings a llama.cpp user would try: flash attention on and off, llama.cpp's default and a large batch. */
const LLAMA_SETTINGS: LlamaSetting[] = [false, true].flatMap((flashAttention) =>
  [512, 2048].map((batchSize) => ({ flashAttention, batchSize })),
);

const settingName = (s: LlamaSetting) => `fa ${s.flashAttention ? "on" : "off"}, batch ${s.batchSize}`;

export function parsePrompts(value: string): number[] {
  const prompts = value.split(",").map((v) => Number(v.trim()));
  if (!prompts.length || prompts.some((n) => !Number.isInteger(n) || n < 16)) {
    throw new UsageError(`--prompts takes comma-separated prompt lengths of at least 16 tokens, like 1024,8192 (got '${value}')`);
  }
  return prompts;
}

const UNIT = "Write a long, detailed story about a lighthouse keeper and the ships she watches. ";

/** A text of at least `tokens` tokens for a tokenizer that reads UNIT as `unitTokens`; `seed` makes prompts share no prefix. */
function textOf(seed: number, tokens: number, unitTokens: number): string {
  return `Story ${seed}. ` + UNIT.repeat(Math.ceil(tokens / Math.max(1, unitTokens)) + 1);
}

export async function compareLlama(options: CompareOptions, progress: (line: string) => void): Promise<ComparePoint[]> {
  const contextSize = Math.max(...options.prompts) + options.tokens + 256;
  const load: LoadOptions = { target: options.target, contextSize, threads: options.threads, gpuLayers: options.gpuLayers };
  const engine = await Engine.load(load);
  // token prompts for the engine and llama.cpp, from the model's own tokenizer; no two share a prefix
  const unitTokens = (await engine.tokenize(UNIT, { addSpecial: false })).length;
  const promptOf = async (seed: number, n: number) =>
    (await engine.tokenize(textOf(seed, n, unitTokens), { addSpecial: false })).slice(0, n);
  const prompts = await Promise.all(options.prompts.map((n, i) => promptOf(i + 1, n)));
  const ours: RunFigures[] = [];
  try {
    for (const [i, prompt] of prompts.entries()) {
      progress(`engine, ${prompt.length} tokens`);
      const r = await engine.generate(prompt, { maxTokens: options.tokens, temperature: 0, ignoreEos: true });
      ours[i] = { prefill: r.stats.promptTokensPerSecond, decode: r.stats.tokensPerSecond, ttftMs: r.stats.promptMs };
    }
  } finally {
    await engine.close();
  }

  const drafted: RunFigures[] = [];
  if (options.draft !== undefined) {
    const withDraft = await Engine.load({ ...load, draft: options.draft });
    try {
      for (const [i, prompt] of prompts.entries()) {
        progress(`engine with the draft, ${prompt.length} tokens`);
        const r = await withDraft.generate(prompt, { maxTokens: options.tokens, temperature: 0, ignoreEos: true });
        drafted[i] = { prefill: r.stats.promptTokensPerSecond, decode: r.stats.tokensPerSecond, ttftMs: r.stats.promptMs };
      }
    } finally {
      await withDraft.close();
    }
  }

  const endpointArgs = ["--target", options.target, "--context", String(contextSize), "--gpu-layers", String(options.gpuLayers)];
  if (options.threads !== undefined) endpointArgs.push("--threads", String(options.threads));
  const endpoint = await startEndpointChild(endpointArgs);
  const served: (RunFigures & { promptTokens: number })[] = [];
  try {
    const perUnit = await endpoint.countTokens(UNIT);
    for (const [i, n] of options.prompts.entries()) {
      progress(`endpoint, ${n} tokens`);
      // about n tokens: textOf rounds up by up to two units
      served[i] = await endpoint.chat(textOf(options.prompts.length + i + 1, n - 2 * perUnit, perUnit), options.tokens);
    }
  } finally {
    await endpoint.close();
  }

  const llama = new Map<LlamaSetting, RunFigures[]>();
  for (const setting of LLAMA_SETTINGS) {
    const runs: RunFigures[] = [];
    for (const prompt of prompts) {
      progress(`llama.cpp ${settingName(setting)}, ${prompt.length} tokens`);
      runs.push(
        await runLlamaContext(options.target, prompt, options.tokens, {
          ...setting,
          threads: options.threads ?? 0,
          contextSize,
          gpuLayers: options.gpuLayers,
        }),
      );
    }
    llama.set(setting, runs);
  }

  return prompts.map((prompt, i) => {
    const best = (key: "prefill" | "decode") => LLAMA_SETTINGS.reduce((a, b) => (llama.get(b)![i][key] > llama.get(a)![i][key] ? b : a));
    const bestPrefill = best("prefill");
    const bestDecode = best("decode");
    return {
      prompt: prompt.length,
      ours_prefill: ours[i].prefill,
      llama_prefill: llama.get(bestPrefill)![i].prefill,
      ours_decode: ours[i].decode,
      llama_decode: llama.get(bestDecode)![i].decode,
      endpoint_prefill: served[i].prefill,
      endpoint_ttft_ms: served[i].ttftMs,
      llama_ttft_ms: llama.get(bestPrefill)![i].ttftMs,
      ...(drafted[i] && { draft_prefill: drafted[i].prefill, draft_decode: drafted[i].decode }),
      llama_best_prefill: settingName(bestPrefill),
      llama_best_decode: settingName(bestDecode),
    };
  });
}

export function compareText(points: ComparePoint[], options: CompareOptions): string {
  const f = (n: number) => n.toFixed(0).padStart(8);
  const r = (a: number, b: number) => `${(a / b).toFixed(2)}×`.padStart(7);
  const draft = options.draft !== undefined;
  const head =
    `engine vs node-llama-cpp ${LLAMA_PACKAGE_VERSION}'s LlamaContext (its best of ${LLAMA_SETTINGS.map(settingName).join("; ")}), ` +
    `${options.threads ?? "default"} threads, ${options.tokens} decoded tokens; tok/s, ratio = ours ÷ llama.cpp's best\n` +
    `${"prompt".padStart(7)} ${"prefill".padStart(8)} ${"endpoint".padStart(8)} ${"llama".padStart(8)} ${"ratio".padStart(7)} ` +
    `${"decode".padStart(8)} ${"llama".padStart(8)} ${"ratio".padStart(7)} ${"ttft ms".padStart(8)} ${"llama".padStart(8)}` +
    (draft ? ` ${"+draft pf".padStart(9)} ${"ratio".padStart(7)} ${"+draft dc".padStart(9)} ${"ratio".padStart(7)}` : "") +
    "\n";
  const rows = points.map(
    (p) =>
      `${String(p.prompt).padStart(7)} ${f(p.ours_prefill)} ${f(p.endpoint_prefill)} ${f(p.llama_prefill)} ${r(p.ours_prefill, p.llama_prefill)} ` +
      `${f(p.ours_decode)} ${f(p.llama_decode)} ${r(p.ours_decode, p.llama_decode)} ${f(p.endpoint_ttft_ms)} ${f(p.llama_ttft_ms)}` +
      (draft
        ? ` ${f(p.draft_prefill!).padStart(9)} ${r(p.draft_prefill!, p.llama_prefill)} ${f(p.draft_decode!).padStart(9)} ${r(p.draft_decode!, p.llama_decode)}`
        : "") +
      `\n        llama.cpp's best: prefill ${p.llama_best_prefill}; decode ${p.llama_best_decode}\n`,
  );
  return head + rows.join("");
}
