// Engine rules that hold for any input: what an engine refuses to compile or throws on when it
// reaches it, found without rendering the template. Sources, all read from the dialect: its
// `refuse` hook (syntax and constructs), its filter/test/global tables, and the verdicts on the
// canonical samples of featureSamples.ts (features an engine has but runs differently). A missing
// filter, test or global is worded by the engine's facts (dialects/*/facts.ts) where they name it.
import { type Dialect, own, type Refusal } from "../interpreter";
import { walk } from "../parser";
import { engineFactsAbout, type EngineFact, ENGINE_LABELS } from "../dialects";
import type { TemplateDocument } from "../document";
import type * as A from "../parser";
import {
  filterSamples,
  INPUT_SHAPES,
  loopSample,
  RIGHT_SHAPES,
  throwsForEveryShape,
  useSample,
  verdict,
  type Verdict,
} from "./featureSamples";
import { boundNames } from "./boundNames";
import { parsedBy } from "./caps/usage";
import type { Finding } from "./finding";
import { isLiteral, literalArgs } from "./literals";
import { innermostAt, nodeAt } from "./nodeIndex";
import { usesOf } from "./valueUses";

const firstLine = (s: string): string => s.split("\n")[0];

/**
 * Why an engine lacks a filter, test or global, in its facts' words (dialects' *_FACTS, whose samples the
 * facts tests render in the real engines). A fact about a name the engine lacks altogether is about that
 * absence, whatever its sample's arguments.
 */
const whyMissing = (d: Dialect, kind: EngineFact["kind"], name: string): string | undefined =>
  engineFactsAbout(d.engine, kind, name)[0]?.cause;

function refusalFinding(d: Dialect, node: A.Node, r: Refusal): Finding {
  const eng = ENGINE_LABELS[d.engine];
  const base = { engine: d.engine, start: node.start, end: node.end, nodeId: node.id, scenarios: [] };
  if (r.when === "parse") {
    return {
      ...base,
      code: `${d.engine}/unsupported-syntax`,
      severity: "error",
      // The cause comes first: the Problems view cuts a message at about 60 characters.
      message: `${eng} cannot compile this (${firstLine(r.message)}), so nothing of the template renders there`,
    };
  }
  if (r.code === "runtime/not-reproduced") {
    return {
      ...base,
      code: `${d.engine}/renders-differently`,
      severity: "warning",
      message: `${eng} renders this differently: ${firstLine(r.message)}`,
    };
  }
  return {
    ...base,
    code: `${d.engine}/unsupported`,
    severity: "error",
    message: `${eng} throws when it reaches this: ${firstLine(r.message)}`,
  };
}

/** A finding about `node`, shown on `span` (default: the node). */
function verdictFinding(d: Dialect, node: A.Node, what: string, v: Verdict, span: A.Span = node): Finding {
  const eng = ENGINE_LABELS[d.engine];
  const base = { engine: d.engine, start: span.start, end: span.end, nodeId: node.id, scenarios: [] };
  if (v.effect === "throws")
    return { ...base, code: `${d.engine}/throws`, severity: "error", message: `${what} throws in ${eng}: ${v.message}` };
  return {
    ...base,
    code: `${d.engine}/renders-differently`,
    severity: "warning",
    message: `${what} renders differently in ${eng}: ${v.sample} gives '${v.engineOut}' there, '${v.referenceOut}' in Jinja2`,
  };
}

/** Static findings for one engine; `reference` is the dialect every engine is measured against. */
export function staticFindings(doc: TemplateDocument, reference: Dialect, engine: Dialect): Finding[] {
  const out: Finding[] = [];
  const eng = ENGINE_LABELS[engine.engine];
  const isReference = engine === reference;
  let bound: Set<string> | null = null;
  // An engine with its own parser (Dialect.parse) refuses at a token or on its own tree's nodes; the
  // finding goes on the construct of our tree there.
  const parsed = parsedBy(engine, doc.text);
  if (parsed && "error" in parsed) {
    out.push(refusalFinding(engine, innermostAt(doc, parsed.error.start), parsed.error));
  } else if (parsed) {
    walk(parsed.template, (node, ancestors) => {
      const r = engine.refuse(node, ancestors, engine, doc.text);
      if (r) out.push(refusalFinding(engine, nodeAt(doc, node) ?? innermostAt(doc, node.start), r));
    });
  }
  walk(doc.template, (node, ancestors) => {
    const r = parsed ? null : engine.refuse(node, ancestors, engine, doc.text);
    if (r) {
      out.push(refusalFinding(engine, node, r));
      return;
    }
    if (isReference) return;
    const base = { engine: engine.engine, nodeId: node.id, scenarios: [], severity: "error" as const };
    switch (node.kind) {
      case "Filter": {
        const span = node.nameSpan;
        if (!own(engine.filters, node.name)) {
          if (own(reference.filters, node.name)) {
            out.push({
              ...base,
              start: span.start,
              end: span.end,
              code: `${engine.engine}/unknown-filter`,
              message: `${eng} has no filter '${node.name}': ${whyMissing(engine, "filter", node.name) ?? firstLine(engine.errorMessage(engine.unknownFilter(node.name)))}`,
            });
          }
          return;
        }
        const args = literalArgs(node, doc.text);
        if (args === null) return;
        const v = throwsForEveryShape(reference, engine, filterSamples(node.name, args));
        if (v) out.push(verdictFinding(engine, node, `The filter '${node.name}'`, v, span));
        return;
      }
      case "Test":
        if (!own(engine.tests, node.name) && own(reference.tests, node.name)) {
          out.push({
            ...base,
            start: node.nameSpan.start,
            end: node.nameSpan.end,
            code: `${engine.engine}/unknown-test`,
            message: `${eng} has no test '${node.name}': ${whyMissing(engine, "test", node.name) ?? firstLine(engine.errorMessage(engine.unknownTest(node.name)))}`,
          });
        }
        return;
      case "Name":
        if (own(reference.globals, node.name) && !own(engine.globals, node.name) && !(bound ??= boundNames(doc)).has(node.name)) {
          const parent = ancestors[ancestors.length - 1];
          const called = parent?.kind === "Call" && parent.callee === node;
          const why = whyMissing(engine, "global", node.name);
          // About the call when there is one: that is where the engine throws.
          out.push({
            ...base,
            nodeId: called ? parent.id : node.id,
            start: node.start,
            end: node.end,
            code: `${engine.engine}/unknown-global`,
            message: `${eng} has no '${node.name}': it is undefined there${called ? ", so this call throws" : ""}${why ? ` (${why})` : ""}`,
          });
        }
        return;
      case "GetAttr": {
        const parent = ancestors[ancestors.length - 1];
        const call = parent?.kind === "Call" && parent.callee === node ? parent : null;
        const args = call ? literalArgs(call, doc.text) : "";
        if (node.object.kind === "Name" && node.object.name === "loop") {
          const feature = call ?? node;
          const expr = `loop.${node.attr}${call ? `(${args ?? "x"})` : ""}`;
          const uses = usesOf(feature, call ? ancestors.slice(0, -1) : ancestors, doc.text, expr);
          const verdicts = [...new Set(uses.map(useSample))].map((body) => verdict(reference, engine, loopSample(body)));
          const v = verdicts.find((x) => x?.effect === "throws") ?? verdicts.find((x) => x !== null);
          if (v) out.push(verdictFinding(engine, feature, `loop.${node.attr}`, v));
          return;
        }
        if (!call || node.numeric || args === null) return;
        const v = throwsForEveryShape(
          reference,
          engine,
          INPUT_SHAPES.map((i) => `{% set _ = ${i}.${node.attr}(${args}) %}`),
        );
        if (v) out.push(verdictFinding(engine, call, `The method '${node.attr}()'`, v, node.attrSpan));
        return;
      }
      case "Binary": {
        if (!isLiteral(node.left) || (node.op !== "%" && node.op !== "*")) return;
        const left = doc.text.slice(node.left.start, node.left.end);
        const v = throwsForEveryShape(
          reference,
          engine,
          RIGHT_SHAPES.map((r) => `{% set _ = ${left} ${node.op} ${r} %}`),
        );
        if (v) out.push(verdictFinding(engine, node, `'${node.op}' on ${left}`, v));
        return;
      }
    }
  });
  return out;
}
