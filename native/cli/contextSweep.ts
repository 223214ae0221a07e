// `chat-template bench --context-sweep 512,2048,8192`: at each prompt length, plain decoding, DFlash with a
// full block every step and DFlash with the adaptive draft length, on one engine (the draft length is chosen
// per request), so the three are measured under the same conditions. Acceptance is the fixed block's: it
// tries every draft position at every step, so it measures the draft at that context.
import { UsageError } from "../../server/src/commandLine";
import type { Engine, GenerateResult } from "../engine";

export interface SweepPoint {
  context: number;
  plain_tps: number;
  fixed_tps: number;
  adaptive_tps: number;
  acceptance: number;
  /** All three decoded the same tokens. */
  lossless: boolean;
}

export function parseContexts(value: string): number[] {
  const contexts = value.split(",").map((v) => Number(v.trim()));
  if (!contexts.length || contexts.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new UsageError(`--context-sweep takes comma-separated prompt lengths in tokens, like 512,2048,8192 (got '${value}')`);
  }
  return contexts;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function contextSweep(
  engine: Engine,
  promptOf: (tokens: number) => Promise<number[]>,
  contexts: number[],
  tokens: number,
  runs: number,
): Promise<SweepPoint[]> {
  const points: SweepPoint[] = [];
  for (const context of contexts) {
    const prompt = await promptOf(context);
    const gen = (speculative: boolean, draftAdaptive: boolean) =>
      engine.generate(prompt, { maxTokens: tokens, temperature: 0, ignoreEos: true, speculative, draftAdaptive });
    const rows: { plain: GenerateResult; fixed: GenerateResult; adaptive: GenerateResult }[] = [];
    for (let i = 0; i < runs; i++)
      rows.push({ plain: await gen(false, false), fixed: await gen(true, false), adaptive: await gen(true, true) });
    const same = (a: GenerateResult, b: GenerateResult) =>
      a.tokens.length === b.tokens.length && a.tokens.every((t, j) => t === b.tokens[j]);
    points.push({
      context,
      plain_tps: median(rows.map((r) => r.plain.stats.tokensPerSecond)),
      fixed_tps: median(rows.map((r) => r.fixed.stats.tokensPerSecond)),
      adaptive_tps: median(rows.map((r) => r.adaptive.stats.tokensPerSecond)),
      acceptance: median(rows.map((r) => r.fixed.stats.acceptance)),
      lossless: rows.every((r) => same(r.plain, r.fixed) && same(r.plain, r.adaptive)),
    });
  }
  return points;
}

export function sweepText(points: SweepPoint[], tokens: number, runs: number): string {
  const pad = (s: string, n: number) => s.padStart(n);
  const lines = points.map(
    (p) =>
      `${pad(String(p.context), 8)} ${pad(p.plain_tps.toFixed(1), 10)} ${pad(p.fixed_tps.toFixed(1), 10)} ${pad(p.adaptive_tps.toFixed(1), 10)} ` +
      `${pad(`${(p.acceptance * 100).toFixed(1)}%`, 10)}  ${(p.adaptive_tps / Math.max(p.plain_tps, p.fixed_tps)).toFixed(2)}x${p.lossless ? "" : "  NOT LOSSLESS"}`,
  );
  return (
    `context sweep (tok/s, median of ${runs} runs of ${tokens} tokens; acceptance of the fixed block; adaptive ÷ the better of the two):\n` +
    `${pad("context", 8)} ${pad("plain", 10)} ${pad("fixed", 10)} ${pad("adaptive", 10)} ${pad("acceptance", 10)}  ratio\n` +
    lines.join("\n") +
    "\n"
  );
}
