// An engine error that only inputs Jinja2 itself raises on can reach changes no outcome: the request fails in
// both. Found by rendering the `if` statement around the failing test or filter, alone, with its subject bound
// to a value of each kind: where the engine fails at that node for every such value, Jinja2 must reach a
// raise_exception (Qwen templates' `content is none or content is undefined`, which minja cannot evaluate, is
// reached only for content that is no string, list or None: "Unexpected content type." in Jinja2).
import { type Dialect, parseJson, type PyDict, render } from "../interpreter";
import { TemplateDocument } from "../document";
import type * as A from "../parser";
import type { Finding } from "./finding";
import { ancestorsOf, nodeById } from "./nodeIndex";
import { CHECK_LIMITS, CHECK_NOW } from "./scenarios";

/** One value of each kind a template input takes (null: the subject left undefined). */
const KINDS: readonly (string | null)[] = [null, "null", '"s"', "1", "1.5", "true", '["s"]', '{"k": "s"}'];

/** The context binding `subject` to the value `json`: a bare name, or a name's attribute. */
function contextFor(subject: A.Expr, json: string | null): string | null {
  if (subject.kind === "Name") return json === null ? "{}" : `{${JSON.stringify(subject.name)}: ${json}}`;
  if (subject.kind === "GetAttr" && subject.object.kind === "Name") {
    const inner = json === null ? "{}" : `{${JSON.stringify(subject.attr)}: ${json}}`;
    return `{${JSON.stringify(subject.object.name)}: ${inner}}`;
  }
  return null;
}

/** The value the failing node tests or filters. */
function subjectOf(node: A.Node): A.Expr | null {
  return node.kind === "Test" || node.kind === "Filter" ? node.expr : null;
}

/**
 * Jinja2's raise_exception message where every input of the engine's failure at `finding`'s node makes Jinja2
 * raise too; null where some input fails only in the engine, or the node is not one this can probe.
 */
export function referenceRaisesThere(doc: TemplateDocument, reference: Dialect, engine: Dialect, finding: Finding): string | null {
  const node = nodeById(doc, finding.nodeId);
  const subject = node && subjectOf(node);
  if (!node || !subject) return null;
  const stmt = [...ancestorsOf(doc, node.id)].reverse().find((a): a is A.If => a.kind === "If");
  if (!stmt) return null;
  const probe = new TemplateDocument(doc.text.slice(stmt.start, stmt.end));
  const at = { start: node.start - stmt.start, end: node.end - stmt.start };
  let raised: string | null = null;
  for (const kind of KINDS) {
    const json = contextFor(subject, kind);
    if (json === null) return null;
    const run = (d: Dialect) => render(probe, parseJson(json) as PyDict, { dialect: d, now: CHECK_NOW, limits: CHECK_LIMITS });
    const e = run(engine).error;
    if (!e || e.start < at.start || e.start >= at.end) continue;
    const r = run(reference).error;
    if (r?.code !== "runtime/raise-exception") return null;
    raised ??= r.message;
  }
  return raised;
}
