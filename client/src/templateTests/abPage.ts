// The "Compare Templates on the Model" report: a webview page with the two well-formed rates as bars with
// their 95 % intervals, the failures by kind, tokens and time, and the difference. Static HTML and SVG
// (no script), so the page's policy allows nothing but its inline style.
import { type AbHeader, type AbResult, type AbSide, FAILURE_KINDS, FAILURE_LABELS } from "../../../server/src/templateTests";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const points = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x * 100).toFixed(1)}`;

const WIDTH = 480;
const ROW = 44;
const LEFT = 40;

function bars(sides: readonly AbSide[]): string {
  const x = (v: number) => LEFT + v * WIDTH;
  const rows = sides.map((s, i) => {
    const y = 10 + i * ROW;
    return [
      `<text x="0" y="${y + 18}" class="label">${s.label}</text>`,
      `<rect x="${LEFT}" y="${y}" width="${(s.rate * WIDTH).toFixed(1)}" height="24" class="bar bar-${s.label}"><title>${esc(s.path)}: ${pct(s.rate)}</title></rect>`,
      // the 95 % interval as a whisker across the bar's end
      `<line x1="${x(s.interval.low).toFixed(1)}" x2="${x(s.interval.high).toFixed(1)}" y1="${y + 12}" y2="${y + 12}" class="whisker"/>`,
      `<line x1="${x(s.interval.low).toFixed(1)}" x2="${x(s.interval.low).toFixed(1)}" y1="${y + 4}" y2="${y + 20}" class="whisker"/>`,
      `<line x1="${x(s.interval.high).toFixed(1)}" x2="${x(s.interval.high).toFixed(1)}" y1="${y + 4}" y2="${y + 20}" class="whisker"/>`,
    ].join("");
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) => `<text x="${x(t)}" y="${10 + sides.length * ROW + 8}" class="tick">${t * 100}%</text>`);
  return `<svg role="img" aria-label="well-formed tool-call rate per template" width="${LEFT + WIDTH + 30}" height="${20 + sides.length * ROW + 10}">${rows.join("")}${ticks.join("")}</svg>`;
}

export function abPage(h: AbHeader, r: AbResult, cspSource: string): string {
  const [a, b] = r.sides;
  const row = (name: string, f: (s: AbSide) => string) => `<tr><th>${esc(name)}</th><td>${esc(f(a))}</td><td>${esc(f(b))}</td></tr>`;
  const per = (s: AbSide, total: number) => (s.samples ? (total / s.samples).toFixed(1) : "0");
  const d = r.difference;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'unsafe-inline';">
<title>Compare templates</title>
<style>
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 16px; }
.bar-A { fill: var(--vscode-charts-blue); } .bar-B { fill: var(--vscode-charts-orange); }
.whisker { stroke: var(--vscode-foreground); stroke-width: 2; }
.label, .tick { fill: var(--vscode-foreground); font-size: 12px; } .tick { text-anchor: middle; }
table { border-collapse: collapse; margin-top: 12px; } th, td { text-align: left; padding: 2px 12px 2px 0; }
td { font-variant-numeric: tabular-nums; } .verdict { font-weight: bold; margin-top: 12px; }
</style></head><body>
<h2>Well-formed tool calls</h2>
<p>Suite ${esc(h.suite)} on ${esc(h.endpoint.url)} (${esc(h.endpoint.server)}, model ${esc(h.endpoint.model)}); the same seeds for both templates.</p>
${bars(r.sides)}
<table>
<tr><th></th><th>A ${esc(a.path)}</th><th>B ${esc(b.path)}</th></tr>
${row("well-formed", (s) => `${s.wellFormed}/${s.samples} = ${pct(s.rate)}`)}
${row("95% interval", (s) => `${pct(s.interval.low)} – ${pct(s.interval.high)}`)}
${FAILURE_KINDS.map((k) => row(FAILURE_LABELS[k], (s) => String(s.failures[k] ?? 0))).join("\n")}
${row("completion tokens per sample", (s) => per(s, s.tokens.completion))}
${row("prompt tokens per sample", (s) => per(s, s.tokens.prompt))}
${row("time per sample", (s) => `${per(s, s.timeMs)} ms`)}
</table>
<p class="verdict">Difference B − A: ${points(d.value)} points, 95% interval ${points(d.low)} to ${points(d.high)}: ${d.significant ? "significant" : "not significant"}.</p>
${h.notes.map((n) => `<p class="note">Note: ${esc(n)}</p>`).join("\n")}
</body></html>
`;
}
