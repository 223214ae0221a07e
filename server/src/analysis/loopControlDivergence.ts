// A divergence made by `{% continue %}` or `{% break %}`: engines that discard what the loop body's statement
// around it had printed in that pass (llama.cpp keeps a body statement's output only once the statement
// completes; @huggingface/jinja drops the whole pass) lose bytes that the nodes before it wrote. The node that
// made the bytes differ is the loop control, not the lookup or text whose output went missing.
import type { Dialect, RenderResult } from "../interpreter";
import type { TemplateDocument } from "../document";
import { walk } from "../parser";
import type * as A from "../parser";
import { ancestorsOf, nodeAt } from "./nodeIndex";
import { sampleRender } from "./sampleRender";

const discards = (d: Dialect, source: string): boolean => {
  const r = sampleRender(d, source);
  return "out" in r && r.out === "";
};

/** What the dialect discards at a continue: the loop body's statement around it, the whole pass, or nothing. */
function discardedAtLoopControl(d: Dialect): "statement" | "pass" | null {
  if (discards(d, "{% for x in [1] %}a{% if true %}{% continue %}{% endif %}{% endfor %}")) return "pass";
  return discards(d, "{% for x in [1] %}{% if true %}a{% continue %}{% endif %}{% endfor %}") ? "statement" : null;
}

/** The loop controls in a body statement's own passes (not those of a loop nested in it). */
function loopControlsIn(stmt: A.Node): A.LoopControl[] {
  const out: A.LoopControl[] = [];
  walk(stmt, (n, ancestors) => {
    if ((n.kind === "Continue" || n.kind === "Break") && !ancestors.some((a) => a.kind === "For")) out.push(n);
  });
  return out;
}

export interface LoopControlDivergence {
  node: A.LoopControl;
  /** What the reference wrote there that the engine discarded. */
  dropped: string;
  /** Whether the engine discards the body statement around the loop control or the whole pass. */
  discarded: "statement" | "pass";
}

/**
 * Where the reference's bytes that the engine lacks were written inside a loop body statement that continues or
 * breaks, in an engine that discards such a statement's output: that loop control. null otherwise.
 */
export function loopControlDivergence(
  doc: TemplateDocument,
  ref: RenderResult,
  eng: RenderResult,
  engine: Dialect,
  reference: Dialect,
): LoopControlDivergence | null {
  const discarded = discardedAtLoopControl(engine);
  if (!discarded || discardedAtLoopControl(reference)) return null;
  let k = 0;
  while (k < ref.output.length && ref.output[k] === eng.output[k]) k++;
  const chunk = ref.chunks.find((c) => c.start <= k && k < c.end);
  const node = chunk && nodeAt(doc, { start: chunk.sourceStart, end: chunk.sourceEnd });
  if (!chunk || !node) return null;
  const path = [...ancestorsOf(doc, node.id), node];
  const loop = path.map((n) => n.kind).lastIndexOf("For");
  const stmt = loop >= 0 ? path[loop + 1] : undefined;
  if (!stmt) return null;
  // a pass-discarding engine loses what every statement before the loop control wrote
  const body = (path[loop] as A.For).body;
  const scope = discarded === "pass" ? body.slice(body.indexOf(stmt as A.Stmt)) : [stmt];
  const controls = scope.flatMap(loopControlsIn).filter((c) => c.start >= node.end);
  if (controls.length === 0) return null;
  return { node: controls[0], dropped: ref.output.slice(chunk.start, chunk.end), discarded };
}
