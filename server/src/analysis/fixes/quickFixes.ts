// Safe fixes for engine findings. A rewrite (rewrites.ts) is offered only when the rewritten
// template parses and the reference (Jinja2) renders it byte for byte as the original on every
// sample scenario — or fails with the same error where the original does — so fixing an engine
// never changes what Jinja2 users get. Edits touch only the construct they rewrite.
import type { Dialect } from "../../interpreter";
import { TemplateDocument } from "../../document";
import { engineFindings, referenceDialect, type EngineCheckOptions } from "../engineChecks";
import type { Finding } from "../finding";
import { ancestorsOf, nodeById } from "../nodeIndex";
import { renderDifference } from "../renderDifference";
import { hasSecurityFindings } from "../security/index";
import type { Scenario } from "../scenario";
import { applyEdits, rewritesFor, type Rewrite } from "./rewrites";

export interface QuickFix extends Rewrite {
  /** The finding it fixes. */
  finding: Finding;
}

/** Whether Jinja2 renders `text` exactly as it renders `doc` on every scenario. */
function rendersIdentically(doc: TemplateDocument, text: string, scenarios: readonly Scenario[]): boolean {
  const next = new TemplateDocument(text);
  if (next.problems.some((p) => p.severity === "error")) return false;
  return renderDifference(doc, next, [referenceDialect()], scenarios) === null;
}

const verified = new WeakMap<TemplateDocument, WeakMap<readonly Scenario[], Map<string, boolean>>>();

/** rendersIdentically for a rewrite of `doc`, kept: the editor asks for code actions at every cursor move. */
function safe(doc: TemplateDocument, r: Rewrite, scenarios: readonly Scenario[]): boolean {
  let bySet = verified.get(doc);
  if (!bySet) verified.set(doc, (bySet = new WeakMap()));
  let byEdit = bySet.get(scenarios);
  if (!byEdit) bySet.set(scenarios, (byEdit = new Map()));
  const key = JSON.stringify(r.edits);
  let ok = byEdit.get(key);
  if (ok === undefined) byEdit.set(key, (ok = rendersIdentically(doc, applyEdits(doc.text, r.edits), scenarios)));
  return ok;
}

/** The verified fixes for one finding. */
export function quickFixesFor(doc: TemplateDocument, finding: Finding, scenarios: readonly Scenario[]): QuickFix[] {
  // A rewrite that makes a payload compile in one more engine is the last thing to offer.
  if (hasSecurityFindings(doc)) return [];
  const node = finding.nodeId >= 0 ? nodeById(doc, finding.nodeId) : undefined;
  if (!node) return [];
  return rewritesFor(doc, node, ancestorsOf(doc, finding.nodeId))
    .filter((r) => safe(doc, r, scenarios))
    .map((r) => ({ ...r, finding }));
}

const overlaps = (a: Rewrite, b: Rewrite): boolean =>
  a.edits.some((x) => b.edits.some((y) => (x.start < y.end && y.start < x.end) || x.start === y.start));

/**
 * Applies every safe fix for the engines' findings, round by round (a fix can reveal the next
 * finding, e.g. once minja parses the template), each round's fixes checked together.
 */
export function fixAll(
  doc: TemplateDocument,
  engines: readonly Dialect[],
  scenarios: readonly Scenario[],
  options: EngineCheckOptions,
): { text: string; applied: string[] } {
  const applied: string[] = [];
  let current = doc;
  for (let round = 0; round < 20; round++) {
    const chosen: QuickFix[] = [];
    for (const f of engineFindings(current, engines, scenarios, options)) {
      if (f.severity === "information" || f.severity === "hint") continue;
      for (const fix of quickFixesFor(current, f, scenarios)) if (!chosen.some((c) => overlaps(c, fix))) chosen.push(fix);
    }
    if (chosen.length === 0) break;
    let text = applyEdits(
      current.text,
      chosen.flatMap((c) => c.edits),
    );
    let taken = chosen;
    if (!rendersIdentically(current, text, scenarios)) {
      taken = [chosen[0]];
      text = applyEdits(current.text, chosen[0].edits);
    }
    applied.push(...taken.map((c) => c.title));
    current = new TemplateDocument(text);
  }
  return { text: current.text, applied };
}
