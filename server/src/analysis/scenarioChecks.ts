// Engine rules found by rendering: each sample scenario in the engine's dialect and in the
// reference. An engine that throws where the reference renders is an error at the throwing node;
// output that differs is a warning at the node whose output differs first, with the cause.
import { type Dialect } from "../interpreter";
import { scenarioContext } from "./scenario";
import { ENGINE_LABELS } from "../dialects";
import type { TemplateDocument } from "../document";
import { chatLayerChanges } from "./chatLayer";
import { describeDivergence, firstDivergence } from "./divergence";
import { loopControlDivergence } from "./loopControlDivergence";
import type { Finding } from "./finding";
import { constructAt } from "./nodeIndex";
import { renderScenario } from "./scenarioRenders";
import type { Scenario } from "./scenario";

const firstLine = (s: string): string => s.split("\n")[0];

/** For an engine fed by llama.cpp's chat layer: what that layer changed in the scenario, the likelier cause. */
function requestNote(doc: TemplateDocument, engine: Dialect, s: Scenario): string {
  const changes = chatLayerChanges(doc, engine, scenarioContext(s));
  return changes.length ? `; llama.cpp's chat layer renders this conversation with ${changes.join(", ")}` : "";
}

/** Where a finding about an engine's error goes: the construct of our tree there. */
function at(doc: TemplateDocument, span: { start: number; end: number }): { start: number; end: number; nodeId: number } {
  const n = constructAt(doc, span);
  return { start: n.start, end: n.end, nodeId: n.id };
}

/** Findings of one engine over the scenarios (for the reference itself: where it throws). */
export function scenarioFindings(doc: TemplateDocument, reference: Dialect, engine: Dialect, scenarios: readonly Scenario[]): Finding[] {
  const out: Finding[] = [];
  const eng = ENGINE_LABELS[engine.engine];
  const ref = ENGINE_LABELS[reference.engine];
  // A reference that throws on every scenario means the template cannot serve any request: an error, not a note.
  const refThrowsAlways =
    engine === reference &&
    scenarios.length > 0 &&
    scenarios.every((s) => {
      const e = renderScenario(doc, reference, s).error;
      return e != null && !e.code.startsWith("limit/");
    });
  for (const s of scenarios) {
    const a = renderScenario(doc, reference, s);
    const base = { engine: engine.engine, scenarios: [s.name] };
    if (engine === reference) {
      // The template refuses that input in the reference itself: worth knowing, not an incompatibility.
      if (a.error?.code.startsWith("limit/")) {
        out.push({
          ...base,
          ...at(doc, a.error),
          code: "compat/check-limit",
          severity: "information",
          message: `The engine checks stop rendering here: ${firstLine(a.error.message)}`,
        });
      } else if (a.error) {
        out.push({
          ...base,
          ...at(doc, a.error),
          code: `${engine.engine}/throws`,
          severity: refThrowsAlways ? "error" : "information",
          message: `${eng} throws here${refThrowsAlways ? " on every scenario" : ""}: ${firstLine(a.error.message)}`,
        });
      }
      continue;
    }
    const b = renderScenario(doc, engine, s);
    if (a.error && b.error) continue;
    if (b.error) {
      out.push({
        ...base,
        ...at(doc, b.error),
        code: `${engine.engine}/throws`,
        severity: "error",
        message: `${eng} throws here where ${ref} renders: ${firstLine(b.error.message)}`,
      });
    } else if (a.error) {
      out.push({
        ...base,
        ...at(doc, a.error),
        code: `${engine.engine}/renders-where-${reference.engine}-throws`,
        severity: "information",
        message: `${eng} renders on where ${ref} throws here (${firstLine(a.error.message)})`,
      });
    } else {
      const lc = loopControlDivergence(doc, a, b, engine, reference);
      const d = lc ? null : firstDivergence(doc, a, b);
      if (lc) {
        const tag = lc.node.kind === "Continue" ? "{% continue %}" : "{% break %}";
        out.push({
          ...base,
          start: lc.node.start,
          end: lc.node.end,
          nodeId: lc.node.id,
          code: `${engine.engine}/renders-differently`,
          severity: "warning",
          message: `${eng} renders different bytes here: this ${tag} discards ${lc.discarded === "pass" ? "everything its loop pass had printed" : "what the loop body's statement around it had printed in that pass"} in ${eng} (${JSON.stringify(lc.dropped.length > 40 ? lc.dropped.slice(0, 37) + "…" : lc.dropped)} in ${ref})${requestNote(doc, engine, s)}`,
        });
      } else if (d) {
        out.push({
          ...base,
          start: d.node.start,
          end: d.node.end,
          nodeId: d.node.id,
          code: `${engine.engine}/renders-differently`,
          severity: "warning",
          message: `${eng} renders different bytes here: ${describeDivergence(d, doc.text, reference, engine)}${requestNote(doc, engine, s)}`,
        });
      }
    }
  }
  return out;
}
