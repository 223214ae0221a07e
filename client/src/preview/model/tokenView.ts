// The token view of a rendered prompt: the model's tokens laid over the text, each with its id, the
// special ones marked, and what a reader would otherwise miss flagged on the token it concerns: a BOS
// the template writes where llama.cpp adds one too (the model sees two), and text shaped like a special
// token (`<|im_sep|>`) that this model's vocabulary does not have, so it becomes several ordinary tokens.

import type { BosInfo, TokenPiece } from "../../gguf/modelBinding";

export interface TokenCell extends TokenPiece {
  /** Where its text is in the prompt (UTF-16 offsets). */
  start: number;
  end: number;
  /** What is wrong with it, or null. */
  flag: string | null;
}

export interface TokenViewModel {
  count: number;
  cells: TokenCell[];
  /** The flags, once each, for the column's header. */
  problems: string[];
}

const SPECIAL_SHAPE = /<\|[^|<>\s]{1,64}\|>|<｜[^｜<>]{1,64}｜>/g;

export function tokenView(text: string, tokens: readonly TokenPiece[], bos: BosInfo | null): TokenViewModel {
  let at = 0;
  const cells: TokenCell[] = tokens.map((t) => {
    const start = Math.min(at, text.length);
    at += t.text.length;
    return { ...t, start, end: Math.min(at, text.length), flag: null };
  });
  const problems: string[] = [];
  const flag = (cell: TokenCell, why: string) => {
    cell.flag ??= why;
    if (!problems.includes(why)) problems.push(why);
  };
  if (bos && cells.length) {
    if (cells[0].id === bos.id && cells[1]?.id === bos.id) flag(cells[1], "double BOS: the prompt starts with two BOS tokens");
    else if (cells[0].id === bos.id && bos.addedByRuntime)
      flag(cells[0], "double BOS: the template writes the BOS token and llama.cpp adds another in front of it");
  }
  for (const m of text.matchAll(SPECIAL_SHAPE)) {
    const start = m.index;
    const end = start + m[0].length;
    const covering = cells.filter((c) => c.start < end && c.end > start);
    if (covering.length === 1 && covering[0].special) continue;
    const why = `'${m[0]}' is not a special token of this model: it becomes ${covering.length} ordinary tokens`;
    for (const c of covering) flag(c, why);
  }
  return { count: cells.length, cells, problems };
}
