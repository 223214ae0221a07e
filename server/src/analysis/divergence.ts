// Where two renders of the same template first differ, and why, in words. Both engines walk the
// same AST, so their output chunks (each tagged with the node that wrote it) line up until the
// first node that writes something else — or writes nothing where the other writes something.
import type { Dialect } from "../dialects/dialect";
import type { TemplateDocument } from "../document";
import type { Chunk } from "../interpreter/output";
import type { RenderResult } from "../interpreter/render";
import type * as A from "../parser/ast";
import { ENGINE_LABELS } from "../types";
import { nodeAt } from "./nodeIndex";
import { printed } from "./sampleRender";

export interface Divergence {
  node: A.Node;
  /** What each engine wrote for that node there ("" where it wrote nothing). */
  referenceText: string;
  engineText: string;
}

const text = (r: RenderResult, c: Chunk | undefined): string => (c ? r.output.slice(c.start, c.end) : "");

/** Which node wrote a chunk, by its range: dialects with their own parser number nodes differently. */
const sameNode = (x: Chunk, y: Chunk): boolean => x.sourceStart === y.sourceStart && x.sourceEnd === y.sourceEnd;

export function firstDivergence(doc: TemplateDocument, ref: RenderResult, eng: RenderResult): Divergence | null {
  if (ref.output === eng.output) return null;
  const a = ref.chunks;
  const b = eng.chunks;
  const same = (x: Chunk | undefined, y: Chunk | undefined): boolean => !!x && !!y && sameNode(x, y) && text(ref, x) === text(eng, y);
  let i = 0;
  let j = 0;
  while (same(a[i], b[j])) {
    i++;
    j++;
  }
  const r = a[i];
  const e = b[j];
  let culprit: Chunk;
  let referenceText = text(ref, r);
  let engineText = text(eng, e);
  if (r && (!e || same(a[i + 1], e))) {
    // The engine wrote nothing (an empty string makes no chunk) where the reference wrote r.
    culprit = r;
    engineText = "";
  } else if (e && (!r || same(r, b[j + 1]))) {
    culprit = e;
    referenceText = "";
  } else {
    culprit = r;
  }
  const node = nodeAt(doc, { start: culprit.sourceStart, end: culprit.sourceEnd });
  return node ? { node, referenceText, engineText } : null;
}

const quote = (s: string): string => {
  const cut = s.length > 40 ? s.slice(0, 37) + "…" : s;
  return "'" + JSON.stringify(cut).slice(1, -1).replace(/'/g, "\\'") + "'";
};

/** Values whose printing differs between engines often enough to name the cause outright. */
const PRINTED_VALUES: readonly { what: string; value: unknown }[] = [
  { what: "None", value: null },
  { what: "True", value: true },
  { what: "False", value: false },
  { what: "the float 0.30000000000000004", value: 0.1 + 0.2 },
  { what: "a list", value: ["a", 1] },
  { what: "a dict", value: { a: 1 } },
];

/** The cause of a divergence in words, e.g. "None prints as '' in llama.cpp, 'None' in Jinja2". */
export function describeDivergence(d: Divergence, source: string, reference: Dialect, engine: Dialect): string {
  const eng = ENGINE_LABELS[engine.engine];
  const ref = ENGINE_LABELS[reference.engine];
  const both = `${quote(d.engineText)} in ${eng}, ${quote(d.referenceText)} in ${ref}`;
  const n = d.node;
  if (n.kind === "Text") {
    const ws = d.engineText.trim() === d.referenceText.trim();
    return `this text renders as ${both}${ws ? " (the engines strip whitespace around tags differently)" : ""}`;
  }
  if (n.kind === "Output") {
    for (const p of PRINTED_VALUES) {
      const a = printed(engine, p.value);
      const b = printed(reference, p.value);
      if (a !== b && d.referenceText === b && d.engineText === a) return `${p.what} prints as ${quote(a)} in ${eng}, ${quote(b)} in ${ref}`;
    }
    const e = n.expr;
    if (e.kind === "Filter") return `the filter '${e.name}' gives ${both}`;
    return `{{ ${source.slice(e.start, e.end)} }} prints ${both}`;
  }
  return `this ${n.kind} writes ${both}`;
}
