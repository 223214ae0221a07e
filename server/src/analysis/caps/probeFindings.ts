// The capability probe's throws as findings: llama.cpp ignores an exception during its probe and
// infers nothing from that render, so a template that throws there silently loses capabilities.
// One finding per throwing node, saying what llama.cpp then believes and how to fix it.
import type { Dialect } from "../../interpreter";
import { ENGINE_LABELS } from "../../dialects";
import type { TemplateDocument } from "../../document";
import type { Finding } from "../finding";
import { rewritesFor } from "../fixes/rewrites";
import { ancestorsOf, constructAt } from "../nodeIndex";
import { capsOf, type ProbeError, type ProbeName } from "./capsProbe";

/** What llama.cpp concludes when one probe render throws (caps.cpp, per probe). */
const CONSEQUENCE: Readonly<Record<Exclude<ProbeName, "null_tools">, string>> = {
  typed_content: "supports_string_content reads false, as if plain-text messages were not supported",
  typed_content_array: "typed content (a list of parts) goes undetected",
  system_role: "supports_system_role can read false, and system messages get folded into user messages",
  tool_object_arguments: "supports_object_arguments stays false, so tool-call arguments reach the template as JSON strings",
  tool_string_arguments: "supports_tools and supports_tool_calls read false, so tool calls fail at serve time",
  parallel_tool_calls: "supports_parallel_tool_calls reads false",
  preserve_reasoning: "supports_preserve_reasoning reads false",
  reasoning_effort: "supports_reasoning_effort can read false",
};

const NOTHING = "every capability reads false, tool arguments stay strings and tool calls fail at serve time";

function fixHint(doc: TemplateDocument, e: ProbeError, engine: string): string {
  const node = constructAt(doc, e);
  const rewrite = rewritesFor(doc, node, ancestorsOf(doc, node.id))[0];
  return rewrite
    ? `Fix: ${rewrite.title}.`
    : `Fix: make this work in ${engine} (see its other diagnostics here) so that the probe renders.`;
}

export function probeFindings(doc: TemplateDocument, dialect: Dialect, options: { nullTools: boolean }): Finding[] {
  const eng = ENGINE_LABELS[dialect.engine];
  const { errors, probes } = capsOf(doc, dialect);
  const out: Finding[] = [];
  const byNode = new Map<string, ProbeError[]>();
  for (const e of errors) {
    const key = `${e.start}:${e.end}`;
    byNode.set(key, [...(byNode.get(key) ?? []), e]);
  }
  for (const group of byNode.values()) {
    const e = group[0];
    const n = constructAt(doc, e);
    const base = { engine: dialect.engine, start: n.start, end: n.end, nodeId: n.id, scenarios: [] };
    const cause = e.message.split("\n")[0];
    if (e.code === "runtime/raise-exception") {
      // The template refuses the probe's input on purpose; what llama.cpp infers from that is right.
      out.push({
        ...base,
        code: `${dialect.engine}/probe-refused`,
        severity: "information",
        message: `${eng}'s capability probe stops at this raise_exception (${cause}), so ${CONSEQUENCE[e.probe as keyof typeof CONSEQUENCE] ?? "it infers nothing from that probe"}`,
      });
      continue;
    }
    if (e.code.startsWith("limit/")) {
      // The checks stopped the probe (capsProbe.ts: exhausted); llama.cpp, which has no limits, would go on.
      out.push({
        ...base,
        code: `${dialect.engine}/probe-exhausted`,
        severity: "warning",
        message: `${eng}'s capability probe ran out of the checks' limits here (${cause}), so the checks stopped it: the capabilities shown are not what ${eng} infers, and ${eng}, which has no such limits, spends that much on every probe render.`,
      });
      continue;
    }
    const all = probes.every((p) => group.some((g) => g.probe === p));
    const effect = all
      ? `${eng} infers nothing: ${NOTHING}`
      : `${eng} infers nothing from it: ${group.map((g) => CONSEQUENCE[g.probe as keyof typeof CONSEQUENCE]).join("; ")}`;
    out.push({
      ...base,
      code: `${dialect.engine}/probe-throws`,
      severity: "error",
      message: `${eng}'s capability probe throws here (${cause}), so ${effect}. ${fixHint(doc, e, eng)}`,
    });
  }
  if (options.nullTools) {
    const old = capsOf(doc, dialect, { nullTools: true }).errors.find((e) => e.probe === "null_tools");
    if (old && old.code !== "runtime/raise-exception") {
      const n = constructAt(doc, old);
      out.push({
        engine: dialect.engine,
        start: n.start,
        end: n.end,
        nodeId: n.id,
        scenarios: [],
        code: `${dialect.engine}/null-tools-probe`,
        severity: "warning",
        message: `Older ${eng} builds' probe throws here (${old.message.split("\n")[0]}): they probe with tools=[null], so they infer nothing: ${NOTHING}. ${fixHint(doc, old, eng)}`,
      });
    }
  }
  return out;
}
