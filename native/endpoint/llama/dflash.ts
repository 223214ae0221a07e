// How a response reports its generation's DFlash statistics: x-dflash-* headers (trailers on a stream,
// whose headers leave before the numbers exist) and a llama-server style `timings` object in the body.
import type { GenerateStats } from "../../engine";

export const DFLASH_HEADERS = [
  "x-dflash-acceptance",
  "x-dflash-mean-accepted",
  "x-dflash-drafted",
  "x-dflash-accepted",
  "x-dflash-tokens-per-second",
] as const;

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
    dflash: {
      speculative: s.speculative,
      acceptance: s.acceptance,
      mean_accepted_length: s.meanAcceptedLength,
      acceptance_at: s.acceptanceAt,
      ...(s.controller && {
        adaptive: s.controller.adaptive,
        draft_length: s.controller.lastChoice,
        draft_lengths: s.controller.choices,
        probes: s.controller.probes,
        break_even: s.controller.breakEven,
      }),
      ...(s.byContext && {
        by_context: s.byContext
          .filter((b) => b.steps + b.plainSteps > 0)
          .map((b) => ({
            context: b.bucket,
            steps: b.steps,
            plain_steps: b.plainSteps,
            drafted: b.drafted,
            accepted: b.accepted,
            acceptance: b.acceptance,
            mean_accepted_length: b.meanAcceptedLength,
          })),
      }),
    },
  };
}

export interface BreakEvenWarning {
  /** Tokens of context when the generation ended. */
  context: number;
  breakEven: number;
  acceptance: number;
  message: string;
}

/** A generation after which the controller estimates that no draft length beats plain decoding, or null. */
export function belowBreakEven(s: GenerateStats): BreakEvenWarning | null {
  const b = s.controller?.breakEven ?? 0;
  if (!(b > 0 && b < 1)) return null;
  const context = s.promptTokens + s.generatedTokens;
  const acceptance = s.acceptance;
  return {
    context,
    breakEven: b,
    acceptance,
    message:
      `DFlash is below break-even at ${context} tokens of context: the best draft length is estimated at ${(b * 100).toFixed(0)}% of ` +
      `plain decoding's speed (acceptance ${(acceptance * 100).toFixed(1)}%)` +
      (s.controller!.adaptive
        ? "; the adaptive draft length decodes plainly and re-probes now and then"
        : "; --draft-adaptive on would decode plainly here"),
  };
}
