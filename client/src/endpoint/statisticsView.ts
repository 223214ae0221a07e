// The Endpoint Statistics webview's HTML: charts drawn as inline SVG (no script library, nothing remote),
// coloured by the theme's chart colours, each with a table of the same figures for screen readers and copying.
import type { EndpointStatistics } from "./statisticsModel";

export type StatisticsState =
  { kind: "figures"; url: string; stats: EndpointStatistics; updated: Date } | { kind: "message"; text: string };

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const percent = (v: number) => `${(v * 100).toFixed(v > 0 && v < 0.1 ? 1 : 0)}%`;
const rate = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

/** The theme's chart colours, as classes: the page's policy allows no inline style attribute. */
export type SeriesColor = "blue" | "orange" | "green" | "purple";

export interface Series {
  name: string;
  color: SeriesColor;
  values: (number | null)[];
}

/** Grouped bars, one group per category; a null value draws no bar and is labelled "–". */
export function barChart(o: {
  title: string;
  categories: string[];
  series: Series[];
  format: (v: number) => string;
  max?: number;
}): string {
  const W = 560;
  const H = 220;
  const left = 48;
  const bottom = 28;
  const top = 24;
  const plotH = H - top - bottom;
  const values = o.series.flatMap((s) => s.values).filter((v): v is number => v !== null && Number.isFinite(v));
  const max = o.max ?? Math.max(1e-9, ...values) * 1.15;
  const group = (W - left) / Math.max(1, o.categories.length);
  const bar = Math.min(40, (group * 0.8) / Math.max(1, o.series.length));
  const y = (v: number) => top + plotH - (Math.min(v, max) / max) * plotH;
  const parts: string[] = [];
  for (let i = 0; i <= 4; i++) {
    const v = (max * i) / 4;
    parts.push(
      `<line class="grid" x1="${left}" x2="${W}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"/>` +
        `<text class="tick" x="${left - 4}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${esc(o.format(v))}</text>`,
    );
  }
  o.categories.forEach((c, ci) => {
    const x0 = left + ci * group + (group - bar * o.series.length) / 2;
    o.series.forEach((s, si) => {
      const v = s.values[ci];
      const x = x0 + si * bar;
      if (v === null || v === undefined || !Number.isFinite(v)) {
        parts.push(`<text class="value" x="${(x + bar / 2).toFixed(1)}" y="${top + plotH - 4}" text-anchor="middle">–</text>`);
        return;
      }
      const label = `${s.name}, ${c}: ${o.format(v)}`;
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y(v).toFixed(1)}" width="${(bar - 2).toFixed(1)}" height="${(top + plotH - y(v)).toFixed(1)}" ` +
          `class="bar ${s.color}"><title>${esc(label)}</title></rect>` +
          `<text class="value" x="${(x + bar / 2).toFixed(1)}" y="${(y(v) - 3).toFixed(1)}" text-anchor="middle">${esc(o.format(v))}</text>`,
      );
    });
    parts.push(
      `<text class="category" x="${(left + ci * group + group / 2).toFixed(1)}" y="${H - 8}" text-anchor="middle">${esc(c)}</text>`,
    );
  });
  const legend = o.series
    .map(
      (s, i) =>
        `<rect class="${s.color}" x="${left + i * 170}" y="4" width="10" height="10"/><text class="legend" x="${left + i * 170 + 14}" y="13">${esc(s.name)}</text>`,
    )
    .join("");
  return `<figure><figcaption>${esc(o.title)}</figcaption><svg role="img" aria-label="${esc(o.title)}" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">${legend}${parts.join("")}</svg></figure>`;
}

const cell = (v: number | null, f: (v: number) => string) => `<td>${v === null ? "–" : esc(f(v))}</td>`;

/** The prompt cache's line: what share of each prompt it served, and the prompts that lost it, by cause. */
function promptCacheNote(s: EndpointStatistics): string {
  const c = s.promptCache;
  if (c.generations === 0) return "";
  const lost = c.divergences.filter((d) => d.count > 0).map((d) => `${d.cause.replace(/_/g, " ")} ${d.count}`);
  return `<p class="note">Prompt cache: ${percent(c.meanReused)} of each prompt reused on average over ${c.generations} generations; prompts that lost it: ${esc(lost.join(", ") || "none")}.</p>`;
}

function figures(url: string, s: EndpointStatistics, updated: Date): string {
  if (!s.hasContextFigures) {
    return `<p class="note">${esc(url)} has not reported DFlash figures by context yet: they appear after a generation with a DFlash draft (this endpoint's <code>cts_dflash_context_*</code> metrics).</p>${promptCacheNote(s)}`;
  }
  const categories = s.buckets.map((b) => b.context);
  const tps = barChart({
    title: "Tokens per second by context length: steps with a DFlash draft against plain steps",
    categories,
    series: [
      { name: "DFlash", color: "blue", values: s.buckets.map((b) => b.dflashTokensPerSecond) },
      { name: "Plain", color: "orange", values: s.buckets.map((b) => b.plainTokensPerSecond) },
    ],
    format: rate,
  });
  const acceptance = barChart({
    title: "DFlash acceptance by context length",
    categories,
    series: [{ name: "Accepted / drafted", color: "green", values: s.buckets.map((b) => b.acceptance) }],
    format: percent,
    max: 1,
  });
  const positions = s.positions.length
    ? barChart({
        title: "Acceptance by draft position",
        categories: s.positions.map((p) => String(p.position)),
        series: [{ name: "Accepted at this position", color: "purple", values: s.positions.map((p) => p.acceptance) }],
        format: percent,
        max: 1,
      })
    : "";
  const rows = s.buckets
    .map(
      (b) =>
        `<tr><th scope="row">${esc(b.context)}</th><td>${b.steps}</td><td>${b.plainSteps}</td>${cell(b.acceptance, percent)}` +
        `${cell(b.meanAcceptedLength, (v) => v.toFixed(2))}${cell(b.dflashTokensPerSecond, rate)}${cell(b.plainTokensPerSecond, rate)}</tr>`,
    )
    .join("");
  const lengths = s.draftLengths
    .map((n, len) => (n > 0 ? `${len === 0 ? "plain" : len}: ${n}` : ""))
    .filter(Boolean)
    .join(", ");
  const breakEven =
    s.breakEven > 0
      ? `best draft length estimated at ${s.breakEven.toFixed(2)}× plain decoding's speed at the last context${s.breakEven < 1 ? " (below break-even)" : ""}`
      : "break-even not measured yet";
  return `<p class="summary">${esc(url)}: ${s.generatedTokens} tokens generated, ${rate(s.tokensPerSecond)} tok/s overall, acceptance ${percent(s.acceptance)}; ${esc(breakEven)}.</p>
<div class="charts">${tps}${acceptance}${positions}</div>
<table><thead><tr><th>Context</th><th>Steps with a draft</th><th>Plain steps</th><th>Acceptance</th><th>Mean accepted</th><th>DFlash tok/s</th><th>Plain tok/s</th></tr></thead><tbody>${rows}</tbody></table>
<p class="note">Steps by tokens drafted: ${esc(lengths || "none")}; ${s.probes} re-probes. Figures since the endpoint started; updated ${esc(updated.toLocaleTimeString())}.</p>${promptCacheNote(s)}`;
}

/** The part of the page that each refresh replaces. */
export function statisticsBody(state: StatisticsState): string {
  return state.kind === "message" ? `<p class="note">${esc(state.text)}</p>` : figures(state.url, state.stats, state.updated);
}

const STYLE = `body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); }
svg text { fill: var(--vscode-foreground); font-size: 11px; }
svg .grid { stroke: var(--vscode-editorWidget-border, #8884); stroke-width: 0.5; }
svg .tick, svg .value { font-size: 10px; }
svg .blue { fill: var(--vscode-charts-blue); } svg .orange { fill: var(--vscode-charts-orange); }
svg .green { fill: var(--vscode-charts-green); } svg .purple { fill: var(--vscode-charts-purple); }
figure { margin: 12px 0; } figcaption { font-weight: 600; margin-bottom: 4px; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
table { border-collapse: collapse; margin-top: 8px; } th, td { padding: 2px 10px; text-align: right; border-bottom: 1px solid var(--vscode-editorWidget-border, #8884); }
.note { opacity: 0.8; }`;

/** The whole page: a strict policy (no remote resources; the inline style and script by nonce). */
export function statisticsPage(state: StatisticsState, nonce: string): string {
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">${STYLE}</style>
<title>Endpoint Statistics</title>
</head>
<body>
<header><button id="refresh">Refresh</button></header>
<main id="figures">${statisticsBody(state)}</main>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
document.getElementById("refresh").addEventListener("click", () => vscode.postMessage({ type: "refresh" }));
window.addEventListener("message", (e) => { if (e.data && e.data.type === "figures") document.getElementById("figures").innerHTML = e.data.html; });
</script>
</body>
</html>
`;
}
