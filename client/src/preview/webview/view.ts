// The preview's markup as strings, from the state and update messages: pure functions, so tests can
// check what the webview shows without a browser, and main.ts only puts them in place. Every element a
// test or the script needs has a stable id or data attribute (see README, "Preview").
import { segments, visibleWhitespace } from "../model/segments";
import { engineTitle, failingFirst, type Verdict } from "../model/verdict";
import type { DiffMark, EngineInfo, EngineView, OptionKey, PreviewState } from "../protocol";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const MAX_TITLE = 300;
const quote = (s: string) => (s.length > MAX_TITLE ? JSON.stringify(s.slice(0, MAX_TITLE)) + "…" : JSON.stringify(s));

export function scenarioOptions(state: PreviewState): string {
  const group = (source: "workspace" | "built-in", label: string) => {
    const items = state.scenarios.filter((s) => s.source === source);
    if (!items.length) return "";
    const options = items.map((s) => {
      const attrs = [`value="${escapeHtml(s.id)}"`, s.id === state.scenario ? "selected" : "", s.problem ? "disabled" : ""].filter(Boolean);
      const title = s.problem ?? s.file;
      return `<option ${attrs.join(" ")}${title ? ` title="${escapeHtml(title)}"` : ""}>${escapeHtml(s.name)}${s.problem ? " (broken)" : ""}</option>`;
    });
    return `<optgroup label="${label}">${options.join("")}</optgroup>`;
  };
  return group("workspace", "Workspace") + group("built-in", "Built-in");
}

export function engineToggles(state: PreviewState): string {
  return state.engines
    .map(
      (e) =>
        `<label class="toggle"><input type="checkbox" data-engine-toggle="${escapeHtml(e.id)}"${e.visible ? " checked" : ""}> ${escapeHtml(engineTitle(e))}</label>`,
    )
    .join("");
}

/** A tri-state select's options: "as the scenario says" (showing what that is), true, false. */
export function triStateOptions(current: boolean | null, fallback: boolean | null): string {
  const opt = (value: string, label: string, selected: boolean) =>
    `<option value="${value}"${selected ? " selected" : ""}>${label}</option>`;
  return [
    opt("", `scenario (${fallback === null ? "unset" : String(fallback)})`, current === null),
    opt("true", "true", current === true),
    opt("false", "false", current === false),
  ].join("");
}

/** What a control's raw value means as an option: an empty text field or "scenario" choice is null. */
export function optionValue(key: OptionKey, raw: string | boolean): string | boolean | null {
  switch (key) {
    case "showWhitespace":
      return raw === true;
    case "extraVariables":
      return String(raw);
    case "addGenerationPrompt":
    case "enableThinking":
      return raw === "" ? null : raw === "true";
    case "bosToken":
    case "eosToken":
      return raw === "" ? null : String(raw);
  }
}

function badge(info: EngineInfo, view: EngineView, referenceLabel: string): { text: string; kind: string } {
  switch (view.status) {
    case "pending":
      return { text: "rendering…", kind: "pending" };
    case "unavailable":
      return { text: "unavailable", kind: "unavailable" };
    case "error":
      return { text: "error", kind: "error" };
  }
  if (info.reference) return { text: "reference", kind: "reference" };
  if (view.diffs === null) return { text: "", kind: "none" };
  if (view.diffs.length === 0) return { text: `same as ${referenceLabel}`, kind: "same" };
  return { text: `${view.diffs.length} difference${view.diffs.length === 1 ? "" : "s"}`, kind: "differs" };
}

export function outputHtml(view: EngineView, referenceLabel: string, showWhitespace: boolean): string {
  const text = view.output;
  const diffs = view.diffs ?? [];
  const markOf = (p: number): DiffMark | undefined => diffs.find((d) => d.start <= p && p < d.end);
  return segments(text, diffs, view.specials)
    .map((seg) => {
      const pos = `data-s="${seg.start}" data-e="${seg.end}"`;
      if (seg.missing !== undefined) {
        return `<span class="missing" ${pos} title="${escapeHtml(`${referenceLabel} has ${quote(seg.missing)} here`)}"></span>`;
      }
      const classes = ["seg", seg.diff && "diff", seg.special && "special", seg.ws && "ws"].filter(Boolean).join(" ");
      const mark = seg.diff ? markOf(seg.start) : undefined;
      const title = mark
        ? ` title="${escapeHtml(mark.reference ? `${referenceLabel} has ${quote(mark.reference)}` : `${referenceLabel} has nothing here`)}"`
        : "";
      const piece = text.slice(seg.start, seg.end);
      if (!(seg.ws && showWhitespace)) return `<span class="${classes}" ${pos}${title}>${escapeHtml(piece)}</span>`;
      // one element per character, so a click on a shown glyph still maps to its own offset
      return [...piece]
        .map(
          (ch, i) =>
            `<span class="${classes}" data-s="${seg.start + i}" data-e="${seg.start + i + 1}"${title}>${escapeHtml(visibleWhitespace(ch))}</span>`,
        )
        .join("");
    })
    .join("");
}

/** The output split into the model's tokens (id on hover, specials and flagged tokens marked), or why there are none and how to get them. */
export function tokensHtml(view: EngineView, showWhitespace: boolean): string {
  const v = view.tokenView;
  if (!v) return `<div class="token-note">${escapeHtml(view.tokenNote ?? "no tokens: the column has no output")}</div>`;
  const problems = v.problems.map((p) => `<div class="token-problem">${escapeHtml(p)}</div>`).join("");
  const cells = v.cells
    .map((c) => {
      const classes = ["tok", c.special && "special", c.flag && "flagged"].filter(Boolean).join(" ");
      const text = showWhitespace ? [...c.text].map(visibleWhitespace).join("") : c.text;
      return `<span class="${classes}" data-id="${c.id}" title="${escapeHtml(`token ${c.id}${c.flag ? `: ${c.flag}` : ""}`)}">${escapeHtml(text)}</span>`;
    })
    .join("");
  return `${problems}<pre class="token-view" data-engine="${escapeHtml(view.id)}" data-count="${v.count}">${cells}</pre>`;
}

export function engineSection(
  info: EngineInfo,
  view: EngineView,
  referenceLabel: string,
  showWhitespace: boolean,
  showTokens = false,
): string {
  const id = escapeHtml(info.id);
  const b = badge(info, view, referenceLabel);
  const tokens =
    view.tokens !== null
      ? `<span class="tokens" data-tokens="${view.tokens}">${view.tokens} tokens</span>`
      : view.tokenNote
        ? `<span class="tokens" data-tokens="" title="${escapeHtml(view.tokenNote)}">tokens: –</span>`
        : "";
  const error = view.error
    ? `<div class="error" data-code="${escapeHtml(view.error.code ?? "")}"><span class="error-message">${escapeHtml(view.error.message)}</span>${
        view.error.line !== null
          ? ` <button class="link" data-action="reveal-error" data-engine="${id}">line ${view.error.line}${view.error.column !== null ? `, column ${view.error.column}` : ""}</button>`
          : ""
      }</div>`
    : "";
  const note = view.note ? `<div class="engine-note">${escapeHtml(view.note)}</div>` : "";
  const empty = view.status === "ok" && view.output === "" ? `<span class="empty">(empty output)</span>` : "";
  const copy =
    view.status === "ok" || view.output
      ? `<button data-action="tokens" data-engine="${id}" aria-pressed="${showTokens}" title="Show the output as the model's tokens">Tokens</button>` +
        `<button data-action="copy" data-engine="${id}" title="Copy the exact output">Copy</button>` +
        `<button data-action="diff" data-engine="${id}" title="Open this output in VS Code's diff editor against another column's">Diff…</button>`
      : "";
  const output =
    view.status === "ok" && showTokens
      ? tokensHtml(view, showWhitespace)
      : view.status === "ok" || view.output
        ? `<pre class="output" data-engine="${id}">${outputHtml(view, referenceLabel, showWhitespace)}${empty}</pre>`
        : "";
  return (
    `<section class="engine" id="engine-${id}" data-engine="${id}" data-status="${view.status}" data-badge="${b.kind}"` +
    ` data-diffs="${view.diffs?.length ?? ""}" data-reference="${info.reference}">` +
    `<header><span class="engine-label">${escapeHtml(engineTitle(info))}</span> <span class="badge">${escapeHtml(b.text)}</span> ${tokens}${copy}</header>` +
    `${note}${error}${output}</section>`
  );
}

/** The verdict line's content: the summary, and a button to the place in the template it is about. */
export function verdictHtml(v: Verdict): string {
  const engine = v.engine === null ? "" : escapeHtml(v.engine);
  const button =
    v.kind === "error" || v.kind === "reference-error"
      ? ` <button class="link" data-action="reveal-error" data-engine="${engine}">reveal</button>`
      : v.kind === "differs"
        ? ` <button class="link" data-action="reveal-output" data-engine="${engine}" data-offset="${v.offset}">reveal</button>`
        : "";
  return `<span class="verdict-text">${escapeHtml(v.text)}</span>${button}`;
}

/** `tokenColumns`: the engines whose column shows tokens instead of text. */
export function enginesHtml(state: PreviewState, views: readonly EngineView[], tokenColumns: ReadonlySet<string> = new Set()): string {
  const reference = state.engines.find((e) => e.reference);
  const referenceLabel = reference ? engineTitle(reference) : "the reference";
  return failingFirst(views)
    .map((v) => {
      const info = state.engines.find((e) => e.id === v.id);
      return info?.visible ? engineSection(info, v, referenceLabel, state.options.showWhitespace, tokenColumns.has(v.id)) : "";
    })
    .join("");
}
