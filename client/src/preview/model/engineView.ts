// One engine's column of the preview, from what the engine returned: its output, its error, the
// differences against the reference and where the special tokens are.
import type { EngineOutcome } from "../engines/engine";
import type { DiffMark, EngineView } from "../protocol";
import { diffChanges } from "./diff";
import { specialTokenRanges, type SpecialTokenSet } from "./specialTokens";
import type { TokenViewModel } from "./tokenView";

export interface TokenCount {
  tokens: number | null;
  note: string | null;
  /** The tokens themselves, once known. */
  view?: TokenViewModel;
}

/** The reference's text behind each difference, so the webview can show what Jinja2 has there. */
export function diffMarks(reference: string, output: string): DiffMark[] {
  return diffChanges(reference, output).map((c) => ({ start: c.bStart, end: c.bEnd, reference: reference.slice(c.aStart, c.aEnd) }));
}

export function engineView(
  id: string,
  outcome: EngineOutcome | "pending",
  /** What this output is compared with: null for the reference itself, or while the reference is pending. */
  reference: EngineOutcome | null,
  note: string | null,
  specials: SpecialTokenSet,
  count: TokenCount,
): EngineView {
  const base = { id, note, error: null, diffs: null, specials: [], tokens: null, tokenNote: null, tokenView: null };
  if (outcome === "pending") return { ...base, status: "pending", output: "" };
  if (outcome.status === "unavailable") return { ...base, status: "unavailable", output: "", note: outcome.reason };
  const compared = outcome.status === "ok" && reference?.status === "ok";
  return {
    ...base,
    status: outcome.status,
    output: outcome.output,
    error:
      outcome.status === "error"
        ? { message: outcome.error.message, code: outcome.error.code, line: outcome.error.line, column: outcome.error.column }
        : null,
    diffs: compared ? diffMarks(reference!.output, outcome.output) : null,
    specials: specialTokenRanges(outcome.output, specials),
    tokens: outcome.status === "ok" ? count.tokens : null,
    tokenNote: outcome.status === "ok" ? count.note : null,
    tokenView: outcome.status === "ok" ? (count.view ?? null) : null,
  };
}
