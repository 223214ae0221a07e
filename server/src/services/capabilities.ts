// What llama.cpp will infer about the template, for the top of the editor: a one-line summary (the
// code lens) and a table (the hover on the first line) of the capabilities its probe reads and the
// tool-call format its autoparser derives, with the probe renders that threw.
import { type Caps, CAPS_KEYS, capsOf, detectToolCallFormat, type ProbeError, type ToolCallFormat } from "../analysis";
import { dialectFor, ENGINE_LABELS } from "../dialects";
import type { EngineId, Span, TemplateDocument } from "../document";

export interface CapabilitySummary {
  engine: EngineId;
  caps: Caps;
  probeErrors: ProbeError[];
  toolCallFormat: ToolCallFormat;
  /** The code lens line. */
  title: string;
  /** The hover: the table and the tool-call markers, Markdown. */
  markdown: string;
  /** Where the lens and the hover sit: the first line. */
  span: Span;
}

const formats = new WeakMap<TemplateDocument, ToolCallFormat>();

const SHORT: Readonly<Record<keyof Caps, string>> = {
  supports_tools: "tools",
  supports_tool_calls: "tool calls",
  supports_parallel_tool_calls: "parallel calls",
  supports_system_role: "system role",
  supports_string_content: "string content",
  supports_typed_content: "typed content",
  supports_object_arguments: "object arguments",
  supports_preserve_reasoning: "preserves reasoning",
  supports_reasoning_effort: "reasoning effort",
};

const code = (s: string): string => (s ? "`` " + JSON.stringify(s).slice(1, -1) + " ``" : "—");

function formatLine(f: ToolCallFormat): string {
  if (f.specialized) return `llama.cpp's own ${f.specialized} parser`;
  if (f.mode === "NONE") return "none detected";
  const markers = [f.section_start || f.per_call_start, f.function.name_prefix, f.arguments.name_prefix]
    .map((m) => m.trim())
    .filter(Boolean);
  return markers.length ? `${f.mode} ${markers.join(" ")}` : f.mode;
}

function markdown(engine: string, caps: Caps, errors: readonly ProbeError[], f: ToolCallFormat, doc: TemplateDocument): string {
  const rows = CAPS_KEYS.map((k) => `| \`${k}\` | ${caps[k] ? "✓ true" : "✗ false"} |`);
  const out = [`**What ${engine} infers from this template** (its capability probe)`, "", "| capability | |", "|---|---|", ...rows, ""];
  out.push(`**Tool-call format:** ${f.specialized ? `${f.mode}, parsed by llama.cpp's own \`${f.specialized}\` parser` : f.mode}`, "");
  if (f.mode !== "NONE") {
    const marks: [string, string][] = [
      ["section", `${code(f.section_start)} … ${code(f.section_end)}`],
      ["each call", `${code(f.per_call_start)} … ${code(f.per_call_end)}`],
      ["function name", `${code(f.function.name_prefix)} name ${code(f.function.name_suffix)}, closed by ${code(f.function.close)}`],
    ];
    if (f.mode === "TAG_WITH_TAGGED") {
      marks.push([
        "argument",
        `${code(f.arguments.name_prefix)} key ${code(f.arguments.name_suffix)} ${code(f.arguments.value_prefix)} value ${code(f.arguments.value_suffix)}`,
      ]);
    }
    if (f.json)
      marks.push(["JSON fields", `name \`${f.json.name_field || "(the key)"}\`, arguments \`${f.json.args_field || "(the value)"}\``]);
    if (f.reasoning.start || f.reasoning.end) marks.push(["reasoning", `${code(f.reasoning.start)} … ${code(f.reasoning.end)}`]);
    out.push(...marks.map(([k, v]) => `- ${k}: ${v}`), "");
  }
  for (const e of errors) {
    const p = doc.lines.positionAt(e.start);
    out.push(`⚠ probe \`${e.probe}\` threw at line ${p.line + 1}, column ${p.character + 1}: ${e.message.split("\n")[0]}`);
  }
  return out.join("\n");
}

/** The capability summary for `engine` (llama.cpp by default), or null without its dialect. */
export function getCapabilitySummary(doc: TemplateDocument, engine: EngineId = "llamacpp"): CapabilitySummary | null {
  const dialect = dialectFor(engine);
  if (!dialect) return null;
  const { caps, errors } = capsOf(doc, dialect);
  let f = formats.get(doc);
  if (!f) formats.set(doc, (f = detectToolCallFormat(doc, dialect, caps)));
  const label = ENGINE_LABELS[engine];
  const on = CAPS_KEYS.filter((k) => caps[k]).map((k) => SHORT[k]);
  const title = `${label}: ${on.length ? on.join(", ") : "no capabilities"} · tool calls: ${formatLine(f)}${errors.length ? ` · ${errors.length} probe error${errors.length > 1 ? "s" : ""}` : ""}`;
  const firstLine = doc.text.search(/\r?\n|$/);
  return {
    engine,
    caps,
    probeErrors: errors,
    toolCallFormat: f,
    title,
    markdown: markdown(label, caps, errors, f, doc),
    span: { start: 0, end: firstLine },
  };
}
