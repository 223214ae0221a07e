// The figures of one generation as the endpoint reports them, for the status bar, the chat provider
// and the model test.

export interface GenerationStats {
  tokensPerSecond: number | null;
  /** Accepted / drafted draft tokens; null without speculative decoding. */
  acceptance: number | null;
  completionTokens: number | null;
  /** Our endpoint's DFlash controller figures (timings.dflash), when the server sent them. */
  dflash?: DFlashFigures;
}

export interface DFlashFigures {
  adaptive: boolean;
  /** Tokens the last step drafted (0: a plain step). */
  draftLength: number;
  /** Best draft length's estimated speed over plain decoding (< 1: below break-even); 0: unknown. */
  breakEven: number;
  byContext: { context: string; acceptance: number; meanAcceptedLength: number; plainSteps: number }[];
}

/** llama-server's `timings` (ours too): predicted_per_second, draft_n, draft_n_accepted. */
export function statsOf(chunk: Record<string, unknown>): GenerationStats | null {
  const t = chunk.timings as Record<string, unknown> | undefined;
  if (!t) return null;
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
  const drafted = num(t.draft_n);
  const stats: GenerationStats = {
    tokensPerSecond: num(t.predicted_per_second),
    acceptance: drafted ? (num(t.draft_n_accepted) ?? 0) / drafted : null,
    completionTokens: num(t.predicted_n),
  };
  const d = t.dflash as Record<string, unknown> | undefined;
  if (d && typeof d.draft_length === "number") {
    const rows = Array.isArray(d.by_context) ? (d.by_context as Record<string, unknown>[]) : [];
    stats.dflash = {
      adaptive: d.adaptive === true,
      draftLength: d.draft_length,
      breakEven: num(d.break_even) ?? 0,
      byContext: rows.map((r) => ({
        context: String(r.context),
        acceptance: num(r.acceptance) ?? 0,
        meanAcceptedLength: num(r.mean_accepted_length) ?? 0,
        plainSteps: num(r.plain_steps) ?? 0,
      })),
    };
  }
  return stats;
}
