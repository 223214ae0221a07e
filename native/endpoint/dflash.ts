// How a response reports its generation's DFlash statistics: x-dflash-* headers (trailers on a stream,
// whose headers leave before the numbers exist) and a llama-server style `timings` object in the body.
import type { GenerateStats } from "../engine/types";

export const DFLASH_HEADERS = ["x-dflash-acceptance", "x-dflash-mean-accepted", "x-dflash-drafted", "x-dflash-accepted", "x-dflash-tokens-per-second"] as const;

export function dflashHeaders(s: GenerateStats): Record<(typeof DFLASH_HEADERS)[number], string> {
  return {
    "x-dflash-acceptance": s.acceptance.toFixed(4),
    "x-dflash-mean-accepted": s.meanAcceptedLength.toFixed(4),
    "x-dflash-drafted": String(s.drafted),
    "x-dflash-accepted": String(s.accepted),
    "x-dflash-tokens-per-second": s.tokensPerSecond.toFixed(2),
  };
}

/** llama-server's field names, so that tools that read its timings read ours; plus the DFlash figures. */
export function timings(s: GenerateStats): object {
  return {
    cache_n: s.cachedTokens,
    prompt_n: s.promptEvaluated,
    prompt_ms: s.promptMs,
    prompt_per_second: s.promptTokensPerSecond,
    predicted_n: s.generatedTokens,
    predicted_ms: s.generateMs,
    predicted_per_second: s.tokensPerSecond,
    draft_n: s.drafted,
    draft_n_accepted: s.accepted,
    dflash: { speculative: s.speculative, acceptance: s.acceptance, mean_accepted_length: s.meanAcceptedLength, acceptance_at: s.acceptanceAt },
  };
}
