// `chat-template caps`'s text output: the capabilities as a table, then the tool-call format's markers and the
// probe renders that threw. The same figures as the JSON, laid out for reading.
import { CAPS_KEYS } from "../analysis";

interface ProbeError {
  probe: string;
  line: number;
  column: number;
  message: string;
}

/** "key: value" lines for the format's non-empty leaves, nested keys joined with dots. */
function formatLines(value: unknown, path: string): string[] {
  if (value === null || value === "" || value === undefined) return [];
  if (typeof value !== "object") return [`  ${path}: ${typeof value === "string" ? JSON.stringify(value) : String(value)}`];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => formatLines(v, path ? `${path}.${k}` : k));
}

export function capsTable(engine: string, out: Record<string, unknown>): string {
  const width = Math.max(...CAPS_KEYS.map((k) => k.length)) + 2;
  const lines = [`${"capability".padEnd(width)}${engine}`];
  for (const k of CAPS_KEYS) lines.push(`${k.padEnd(width)}${out[k] ? "yes" : "no"}`);
  const format = out.tool_call_format as { mode: string } & Record<string, unknown>;
  lines.push("", `tool-call format: ${format.mode}`, ...formatLines({ ...format, mode: null }, ""));
  const errors = out.probe_errors as ProbeError[];
  lines.push("", errors.length ? "probe renders that threw:" : "probe renders that threw: none");
  for (const e of errors) lines.push(`  ${e.probe} at line ${e.line}, column ${e.column}: ${e.message}`);
  return lines.join("\n") + "\n";
}
