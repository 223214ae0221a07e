// The preview's first line: what the columns below add up to, so the answer is read before any column
// is. A failing engine is named with where and why ("minja throws at line 2: …"), and the columns are
// ordered the same way, failing engines first.
import type { EngineInfo, EngineView } from "../protocol";

export interface Verdict {
  kind: "pending" | "same" | "reference-error" | "error" | "differs";
  text: string;
  /** The engine the text is about, for its reveal button; null when it is about all of them. */
  engine: string | null;
  /** For a difference: the output offset where it starts (the button reveals the template there). */
  offset: number | null;
}

/**
 * How our dialects and the real engines are told apart everywhere in the preview: "llama.cpp dialect" is
 * our interpreter's, "real llama.cpp" the engine itself. The reference is what everything is compared
 * with, named as it is.
 */
export function engineTitle(e: Pick<EngineInfo, "label" | "real" | "reference">): string {
  if (e.real) return `real ${e.label}`;
  return e.reference ? e.label : `${e.label} dialect`;
}

const MAX_SHOWN = 40;
const shown = (s: string): string => JSON.stringify(s.length > MAX_SHOWN ? s.slice(0, MAX_SHOWN) + "…" : s);

/** 0 for a failing column, 1 for one that differs, 2 for the rest: the order of the columns. */
export function failureRank(v: EngineView): number {
  if (v.status === "error") return 0;
  return v.diffs?.length ? 1 : 2;
}

/** Failing engines first, then those that differ, each group in its registry order. */
export function failingFirst<T extends EngineView>(views: readonly T[]): T[] {
  return views
    .map((v, i) => ({ v, i }))
    .sort((a, b) => failureRank(a.v) - failureRank(b.v) || a.i - b.i)
    .map((x) => x.v);
}

/** "; 1 more engine throws", "; 2 more engines throw". */
function more(n: number, verb: string): string {
  if (n === 0) return "";
  return n === 1 ? `; 1 more engine ${verb}s` : `; ${n} more engines ${verb}`;
}

/** The summary of the visible engines' renders. */
export function verdict(engines: readonly EngineInfo[], views: readonly EngineView[]): Verdict {
  const info = new Map(engines.map((e) => [e.id, e]));
  const visible = views.filter((v) => info.get(v.id)?.visible);
  const title = (v: EngineView) => engineTitle(info.get(v.id)!);
  const reference = engines.find((e) => e.reference);
  const referenceTitle = reference ? engineTitle(reference) : "the reference";
  const at = (v: EngineView) => (v.error?.line != null ? ` at line ${v.error.line}` : "");
  const firstLine = (s: string) => s.split("\n")[0];

  const failed = visible.filter((v) => v.status === "error");
  const refFailed = failed.find((v) => info.get(v.id)?.reference);
  if (refFailed) {
    return {
      kind: "reference-error",
      text: `${title(refFailed)} throws${at(refFailed)}: ${firstLine(refFailed.error?.message ?? "")} (the template refuses this scenario)`,
      engine: refFailed.id,
      offset: null,
    };
  }
  if (failed.length) {
    const v = failed[0];
    return {
      kind: "error",
      text: `${title(v)} throws${at(v)}: ${firstLine(v.error?.message ?? "")}${more(failed.length - 1, "throw")}`,
      engine: v.id,
      offset: null,
    };
  }
  if (visible.some((v) => v.status === "pending")) return { kind: "pending", text: "rendering…", engine: null, offset: null };
  const differing = visible.filter((v) => v.diffs?.length);
  if (differing.length) {
    const v = differing[0];
    const d = v.diffs![0];
    const line = v.output.slice(0, d.start).split("\n").length;
    const has = d.start === d.end ? "nothing" : shown(v.output.slice(d.start, d.end));
    return {
      kind: "differs",
      text: `${title(v)} differs from ${referenceTitle} at output line ${line}: ${has} where ${referenceTitle} has ${d.reference ? shown(d.reference) : "nothing"}${more(differing.length - 1, "differ")}`,
      engine: v.id,
      offset: d.start,
    };
  }
  const ok = visible.filter((v) => v.status === "ok").length;
  const unavailable = visible.length - ok;
  return {
    kind: "same",
    text: `all ${ok} engines render the same bytes${unavailable ? ` (${unavailable} unavailable)` : ""}`,
    engine: null,
    offset: null,
  };
}
