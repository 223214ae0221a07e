// Where two renders of the same template first differ, and why, in words. Both engines walk the
// same AST, so their output chunks (each tagged with the node that wrote it) line up until the
// first node that writes something else — or writes nothing where the other writes something.
import type { Dialect, RenderResult } from "../interpreter";
import { ENGINE_LABELS } from "../dialects";
import type { TemplateDocument } from "../document";
import type * as A from "../parser";
import { nodeAt } from "./nodeIndex";
import { printed } from "./sampleRender";

export interface Divergence {
  node: A.Node;
  /** What each engine wrote for that node there ("" where it wrote nothing). */
  referenceText: string;
  engineText: string;
}

/** A node's consecutive chunks as one (an engine may write a value in pieces). */
interface Run {
  sourceStart: number;
  sourceEnd: number;
  text: string;
}

function runs(r: RenderResult): Run[] {
  const out: Run[] = [];
  for (const c of r.chunks) {
    const last = out[out.length - 1];
    const text = r.output.slice(c.start, c.end);
    if (last && last.sourceStart === c.sourceStart && last.sourceEnd === c.sourceEnd) last.text += text;
    else out.push({ sourceStart: c.sourceStart, sourceEnd: c.sourceEnd, text });
  }
  return out;
}

/** Which node wrote a run, by its range: dialects with their own parser number nodes differently. */
const sameNode = (x: Run, y: Run): boolean => x.sourceStart === y.sourceStart && x.sourceEnd === y.sourceEnd;
const same = (x: Run | undefined, y: Run | undefined): boolean => !!x && !!y && sameNode(x, y) && x.text === y.text;

export function firstDivergence(doc: TemplateDocument, ref: RenderResult, eng: RenderResult): Divergence | null {
  if (ref.output === eng.output) return null;
  const a = runs(ref);
  const b = runs(eng);
  let i = 0;
  while (same(a[i], b[i])) i++;
  const r = a[i];
  const e = b[i];
  // what the chat layer appends after the render (a prefill) is no node's
  if (!r && !e) return null;
  let culprit: Run;
  let referenceText = r?.text ?? "";
  let engineText = e?.text ?? "";
  if (r && (!e || same(a[i + 1], e))) {
    // The engine wrote nothing (an empty string makes no chunk) where the reference wrote r.
    culprit = r;
    engineText = "";
  } else if (e && (!r || same(r, b[i + 1]))) {
    culprit = e;
    referenceText = "";
  } else {
    culprit = r;
  }
  const node = nodeAt(doc, { start: culprit.sourceStart, end: culprit.sourceEnd });
  return node ? { node, referenceText, engineText } : null;
}

/** A short literal of an output text, in the quotes that need no escaping where possible. */
const quote = (s: string): string => {
  const cut = s.length > 40 ? s.slice(0, 37) + "…" : s;
  const body = JSON.stringify(cut).slice(1, -1);
  return cut.includes("'") && !cut.includes('"') ? `"${body}"` : `'${body.replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
};

/** Kinds of value whose printing differs between engines often enough to name the cause outright. */
const PRINTED_KINDS: readonly { what: string; sample: unknown; looks: (s: string) => boolean }[] = [
  { what: "None", sample: null, looks: (s) => s === "None" },
  { what: "True", sample: true, looks: (s) => s === "True" },
  { what: "False", sample: false, looks: (s) => s === "False" },
  { what: "a float", sample: 0.1 + 0.2, looks: (s) => /^-?\d+\.\d+(e[+-]\d+)?$/.test(s) },
  { what: "a list", sample: ["a", 1], looks: (s) => /^\[.*\]$/s.test(s) },
  { what: "a dict", sample: { a: 1 }, looks: (s) => /^\{.*\}$/s.test(s) },
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
    // A kind counts when the reference's text looks like it and the engine prints that kind otherwise.
    const kind = PRINTED_KINDS.find((k) => k.looks(d.referenceText) && printed(engine, k.sample) !== printed(reference, k.sample));
    if (kind) return `${kind.what} prints as ${both}`;
    const e = n.expr;
    if (e.kind === "Filter") return `the filter '${e.name}' gives ${both}`;
    return `{{ ${source.slice(e.start, e.end)} }} prints ${both}`;
  }
  return `this ${n.kind} writes ${both}`;
}
