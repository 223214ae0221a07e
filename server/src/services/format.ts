// Format Document / Format Selection and `chat-template format`: the canonical layout (formatLayout.ts), applied
// only where it is proven harmless. Two proofs, cheap first:
// 1. the lexer's: an edit of the text between tags is kept only where Jinja2 still emits the same characters
//    there (the whitespace control drops them), so Jinja2's output cannot change for any input;
// 2. the engines': the edits kept so far must leave every engine's render of every scenario (output or error)
//    and its capability probe as they were; when they do not, the batch is halved until the edits at fault are
//    found, and only those are left out.
// Whatever is left out is reported with the reason. Formatting repeats until the text stops changing (an edit can
// become provable once its neighbours are in), so formatting the result again changes nothing.
import {
  applyEdits,
  behaviourDifference,
  BUILTIN_SCENARIOS,
  capsOf,
  dialectsOf,
  renderScenario,
  type Scenario,
  type TextEdit,
} from "../analysis";
import { registeredEngines, ENGINE_LABELS } from "../dialects";
import { type Span, TemplateDocument } from "../document";
import { emittedText } from "./formatGaps";
import { type LayoutEdit, type LayoutOptions, proposeLayout, unitsOf } from "./formatLayout";

/** An engine's dialect, as the analysis hands them out (this layer does not import the interpreter). */
type Dialect = ReturnType<typeof dialectsOf>[number];

export interface FormatOptions extends LayoutOptions {
  /** Format Selection: only edits inside this span of the document. */
  range?: Span;
}

/** A region the layout would change, left as it is, and why. */
export interface LeftAlone extends Span {
  reason: string;
}

export interface FormatResult {
  /** The formatted template (the original when refused). */
  text: string;
  /** Edits that turn the original into `text`. */
  edits: TextEdit[];
  /** In `text`: the regions the layout would change but the proof keeps as they are. */
  leftAlone: LeftAlone[];
  /** Why nothing was formatted (the template does not parse, or is too large to prove), or null. */
  refused: string | null;
}

/** Past this size the proof's renders would outlast an editor's patience; such a template is left as it is. */
export const MAX_FORMAT_LENGTH = 256 * 1024;
/** Engine proofs per round: the whole batch, then halves around the edits at fault. */
const MAX_PROOFS = 48;
const ROUNDS = 4;

export const TEXT_REASON =
  "left as it is: this whitespace is template text that every engine would emit (no `-` sign, trim_blocks or lstrip_blocks removes it)";

interface Round {
  text: string;
  edits: TextEdit[];
  leftAlone: LeftAlone[];
}

const isSpace = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === "\v";

/**
 * The edits of one gap that keep its emitted text: all of them, else each in turn that still does. An edit
 * between the gap's first and last visible characters is output whatever the whitespace control (a `-` strips
 * only up to them), so it is left out without lexing: a long text would otherwise be lexed once per line.
 */
function keepText(text: string, gap: { start: number; end: number }, proposed: LayoutEdit[], emitted: (s: string) => string) {
  let first = gap.start;
  while (first < gap.end && isSpace(text[first])) first++;
  let last = gap.end;
  while (last > first && isSpace(text[last - 1])) last--;
  const verbatim = (e: LayoutEdit) => e.start > first && e.end < last;
  const left = proposed.filter(verbatim);
  const edges = proposed.filter((e) => !verbatim(e));
  const local = (edits: LayoutEdit[]) =>
    applyEdits(
      text.slice(gap.start, gap.end),
      edits.map((e) => ({ ...e, start: e.start - gap.start, end: e.end - gap.start })),
    );
  const want = emitted(text.slice(gap.start, gap.end));
  if (emitted(local(edges)) === want) return { kept: edges, left };
  const kept: LayoutEdit[] = [];
  for (const e of edges) (emitted(local([...kept, e])) === want ? kept : left).push(e);
  return { kept, left };
}

/** The largest set of `edits` (found by halving) that keeps the behaviour of `doc`, within `budget` proofs. */
function provable(
  doc: TemplateDocument,
  edits: LayoutEdit[],
  dialects: readonly Dialect[],
  scenarios: readonly Scenario[],
): { kept: LayoutEdit[]; left: { edit: LayoutEdit; reason: string }[] } {
  let budget = MAX_PROOFS;
  const left: { edit: LayoutEdit; reason: string }[] = [];
  const search = (candidates: LayoutEdit[], accepted: LayoutEdit[]): LayoutEdit[] => {
    if (candidates.length === 0) return [];
    if (budget-- <= 0) {
      for (const edit of candidates) left.push({ edit, reason: "left as it is: the proof ran out of its budget of renders" });
      return [];
    }
    const difference = behaviourDifference(
      doc,
      new TemplateDocument(applyEdits(doc.text, [...accepted, ...candidates])),
      dialects,
      scenarios,
    );
    if (difference === null) return candidates;
    if (candidates.length === 1) {
      left.push({ edit: candidates[0], reason: `left as it is: ${difference}` });
      return [];
    }
    const half = candidates.length >> 1;
    const first = search(candidates.slice(0, half), accepted);
    return [...first, ...search(candidates.slice(half), [...accepted, ...first])];
  };
  return { kept: search(edits, []), left };
}

/** Where `offset` of the text before `edits` lands after them. */
function shifted(offset: number, edits: readonly TextEdit[]): number {
  let delta = 0;
  for (const e of edits) if (e.end <= offset) delta += e.newText.length - (e.end - e.start);
  return offset + delta;
}

/**
 * Why no layout change can be proven in time, when a render of the template runs out of a limit: every proof
 * would render it again to that limit (seconds each). The first scenario is tried in every engine first.
 */
function exhaustedLimit(doc: TemplateDocument, dialects: readonly Dialect[], scenarios: readonly Scenario[]): string | null {
  for (const s of scenarios)
    for (const d of dialects) {
      const error = renderScenario(doc, d, s).error ?? (s === scenarios[0] ? capsOf(doc, d, { nullTools: true }).exhausted : null);
      if (error?.code.startsWith("limit/"))
        return `not formatted: ${ENGINE_LABELS[d.engine]} runs out of a render limit (${error.code}) on it, so no layout change can be proven in time`;
    }
  return null;
}

function formatRound(
  doc: TemplateDocument,
  options: FormatOptions,
  dialects: readonly Dialect[],
  scenarios: readonly Scenario[],
): Round | string {
  const { range } = options;
  const proposed = proposeLayout(doc, options).filter((e) => !range || (e.start >= range.start && e.end <= range.end));
  const { gaps } = unitsOf(doc.tokens, doc.text.length);
  const leftOut: { edit: LayoutEdit; reason: string }[] = [];
  const candidates: LayoutEdit[] = proposed.filter((e) => e.kind === "spacing");
  const byGap = new Map<number, LayoutEdit[]>();
  for (const e of proposed) if (e.kind !== "spacing") byGap.set(e.gap, [...(byGap.get(e.gap) ?? []), e]);
  for (const [gi, edits] of byGap) {
    const gap = gaps[gi];
    const { kept, left } = keepText(doc.text, gap, edits, (s) => emittedText(doc.text, gap, s));
    candidates.push(...kept);
    leftOut.push(...left.map((edit) => ({ edit, reason: TEXT_REASON })));
  }
  candidates.sort((a, b) => a.start - b.start);
  const bomb = candidates.length ? exhaustedLimit(doc, dialects, scenarios) : null;
  if (bomb) return bomb;
  const { kept, left } = provable(doc, candidates, dialects, scenarios);
  leftOut.push(...left);
  const text = applyEdits(doc.text, kept);
  const leftAlone = leftOut
    .map(({ edit, reason }) => ({ start: shifted(edit.start, kept), end: shifted(edit.end, kept), reason }))
    .sort((a, b) => a.start - b.start);
  return { text, edits: kept.map(({ start, end, newText }) => ({ start, end, newText })), leftAlone };
}

/** The edit that turns `before` into `after`: the span between their common prefix and suffix. */
function wholeEdit(before: string, after: string): TextEdit[] {
  if (before === after) return [];
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let tail = 0;
  while (tail < before.length - start && tail < after.length - start && before[before.length - 1 - tail] === after[after.length - 1 - tail])
    tail++;
  return [{ start, end: before.length - tail, newText: after.slice(start, after.length - tail) }];
}

/**
 * Formats `doc` with the canonical layout wherever every engine's behaviour is proven unchanged, with every
 * registered engine unless `engines` names the dialects, on the built-in scenarios unless `scenarios` are given.
 */
export function formatTemplate(
  doc: TemplateDocument,
  options: FormatOptions,
  engines: readonly Dialect[] = dialectsOf(registeredEngines()),
  scenarios: readonly Scenario[] = BUILTIN_SCENARIOS,
): FormatResult {
  const unchanged = (refused: string): FormatResult => ({ text: doc.text, edits: [], leftAlone: [], refused });
  const error = doc.problems.find((p) => p.severity === "error");
  if (error) {
    const at = doc.lines.positionAt(error.start);
    return unchanged(`not formatted: the template does not parse (${at.line + 1}:${at.character + 1}: ${error.message})`);
  }
  if (doc.text.length > MAX_FORMAT_LENGTH)
    return unchanged(`not formatted: the template is larger than ${MAX_FORMAT_LENGTH / 1024} KiB, too large to prove a layout harmless`);
  let current = doc;
  let range = options.range;
  let round: Round = { text: doc.text, edits: [], leftAlone: [] };
  const rounds: TextEdit[][] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const next = formatRound(current, { ...options, range }, engines, scenarios);
    if (typeof next === "string") return { text: current.text, edits: wholeEdit(doc.text, current.text), leftAlone: [], refused: next };
    round = next;
    if (round.edits.length === 0) break;
    rounds.push(round.edits);
    if (range) range = { start: shifted(range.start, round.edits), end: shifted(range.end, round.edits) };
    current = new TemplateDocument(round.text);
  }
  const edits = rounds.length === 1 ? rounds[0] : wholeEdit(doc.text, current.text);
  return { text: current.text, edits, leftAlone: round.leftAlone, refused: null };
}
