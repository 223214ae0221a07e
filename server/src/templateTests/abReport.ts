// The report of `chat-template ab`: a text table (one column per template) or JSON for scripts.
import type { AbResult, AbSide } from "./abRun";
import { endpointNotes, type Endpoint } from "./endpointClient";
import { FAILURE_KINDS, FAILURE_LABELS } from "./turnVerdict";

export interface AbHeader {
  suite: string;
  endpoint: { url: string; server: string; model: string };
  /** What the reader must know, e.g. that the demo models answered. */
  notes: readonly string[];
}

/** The header of a comparison on this endpoint. */
export function abHeader(suite: string, e: Endpoint): AbHeader {
  return { suite, endpoint: { url: e.base, server: e.server, model: e.model }, notes: endpointNotes(e) };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const points = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x * 100).toFixed(1)}`;

export function abText(h: AbHeader, r: AbResult): string {
  const [a, b] = r.sides;
  const rows: [string, string, string][] = [
    ["", `A ${a.path}`, `B ${b.path}`],
    ["well-formed tool calls", rateCell(a), rateCell(b)],
    ["95% interval", interval(a), interval(b)],
    ...FAILURE_KINDS.map((k): [string, string, string] => [FAILURE_LABELS[k], String(a.failures[k] ?? 0), String(b.failures[k] ?? 0)]),
    ["completion tokens per sample", perSample(a, a.tokens.completion), perSample(b, b.tokens.completion)],
    ["prompt tokens per sample", perSample(a, a.tokens.prompt), perSample(b, b.tokens.prompt)],
    ["time per sample", `${perSample(a, a.timeMs)} ms`, `${perSample(b, b.timeMs)} ms`],
  ];
  const w0 = Math.max(...rows.map((x) => x[0].length));
  const w1 = Math.max(...rows.map((x) => x[1].length));
  const lines = [
    `suite ${h.suite} on ${h.endpoint.url} (${h.endpoint.server}, model ${h.endpoint.model})`,
    "",
    ...rows.map(([k, x, y]) => `${k.padEnd(w0)}  ${x.padEnd(w1)}  ${y}`.trimEnd()),
    "",
    `difference B − A: ${points(r.difference.value)} points, 95% interval ${points(r.difference.low)} to ${points(r.difference.high)}: ` +
      (r.difference.significant ? "significant" : "not significant"),
    ...h.notes.map((n) => `note: ${n}`),
  ];
  return lines.join("\n") + "\n";
}

const rateCell = (s: AbSide) => `${s.wellFormed}/${s.samples} = ${pct(s.rate)}`;
const interval = (s: AbSide) => `${pct(s.interval.low)} – ${pct(s.interval.high)}`;
const perSample = (s: AbSide, total: number) => (s.samples ? (total / s.samples).toFixed(1) : "0");

export function abJson(h: AbHeader, r: AbResult): string {
  return (
    JSON.stringify({ suite: h.suite, endpoint: h.endpoint, notes: h.notes, templates: r.sides, difference: r.difference }, null, 2) + "\n"
  );
}
