// Splits an engine's output into runs the webview draws as one element each: a run is entirely inside
// or outside a difference, a special token and whitespace. A zero-width difference (text the
// reference has and this output lacks) becomes a marker run of its own.
import type { DiffMark, Span } from "../protocol";

export interface Segment extends Span {
  diff: boolean;
  special: boolean;
  ws: boolean;
  /** Set on a zero-width marker: what the reference has here that this output lacks. */
  missing?: string;
}

/** Whitespace plus the invisible characters (zero-width space, joiners, word joiner) that break prompts silently. */
const WS = /[\s\u200b-\u200d\u2060]/;
const WS_RUNS = /[\s\u200b-\u200d\u2060]+/g;

export function segments(text: string, diffs: readonly DiffMark[], specials: readonly Span[]): Segment[] {
  const cuts = new Set<number>([0, text.length]);
  for (const s of [...diffs, ...specials]) cuts.add(s.start).add(s.end);
  for (const m of text.matchAll(WS_RUNS)) cuts.add(m.index).add(m.index + m[0].length);
  const points = [...cuts].filter((p) => p >= 0 && p <= text.length).sort((x, y) => x - y);
  const inside = (spans: readonly Span[], p: number) => spans.some((s) => s.start <= p && p < s.end);
  const out: Segment[] = [];
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    for (const d of diffs) {
      if (d.start === p && d.end === p) out.push({ start: p, end: p, diff: true, special: false, ws: false, missing: d.reference });
    }
    const q = points[i + 1];
    if (q === undefined) break;
    out.push({ start: p, end: q, diff: inside(diffs, p), special: inside(specials, p), ws: WS.test(text[p]) });
  }
  return out;
}

const GLYPHS: Record<string, string> = { " ": "·", "\t": "→", "\n": "↵\n", "\r": "␍" };

/** How one whitespace character looks with whitespace shown; a newline keeps its line break. */
export function visibleWhitespace(ch: string): string {
  return GLYPHS[ch] ?? "␣";
}
