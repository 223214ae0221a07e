/// <reference lib="dom" />
// The preview webview's script: puts the host's state and renders in place (view.ts builds the markup)
// and sends the user's actions back. Updates replace only the engine columns, so the page keeps its
// scroll position; the position also survives the webview being reloaded (setState).
import { parseHostMessage, type OptionKey, type PreviewState, type PreviewUpdate, type WebviewMessage } from "../protocol";
import { modelOutputHtml } from "./modelOutput";
import { verdict } from "../model/verdict";
import { enginesHtml, engineToggles, optionValue, scenarioOptions, triStateOptions, verdictHtml } from "./view";

declare function acquireVsCodeApi(): { postMessage(m: WebviewMessage): void; setState(s: unknown): void; getState(): unknown };
const vscode = acquireVsCodeApi();
const post = (m: WebviewMessage) => vscode.postMessage(m);

let state: PreviewState | null = null;
let update: PreviewUpdate | null = null;
/** The columns showing the model's tokens instead of the text (the Tokens button). */
const tokenColumns = new Set<string>();
let restoreScroll = (vscode.getState() as { scrollY?: number } | null)?.scrollY;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** Sets a control's value unless the user is typing in it. */
function setControl(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
  if (document.activeElement !== el && el.value !== value) el.value = value;
}

function applyState(s: PreviewState): void {
  state = s;
  document.title = s.template ? `Preview: ${s.template.name}` : "Preview";
  $("template-name").textContent = s.template?.name ?? "";
  $("scenario").innerHTML = scenarioOptions(s);
  setControl($("bos-token"), s.options.bosToken ?? "");
  $<HTMLInputElement>("bos-token").placeholder = s.defaults.bosToken || "(empty)";
  setControl($("eos-token"), s.options.eosToken ?? "");
  $<HTMLInputElement>("eos-token").placeholder = s.defaults.eosToken || "(empty)";
  $("add-generation-prompt").innerHTML = triStateOptions(s.options.addGenerationPrompt, s.defaults.addGenerationPrompt);
  $("enable-thinking").innerHTML = triStateOptions(s.options.enableThinking, s.defaults.enableThinking);
  setControl($("extra-variables"), s.options.extraVariables);
  $<HTMLInputElement>("show-whitespace").checked = s.options.showWhitespace;
  $("engine-toggles").innerHTML = engineToggles(s);
  $("tokenizer").textContent = s.tokenizer ? `tokenizer: ${s.tokenizer}` : "";
  renderEngines();
}

function renderEngines(): void {
  if (!state || !update) return;
  $("engines").innerHTML = enginesHtml(state, update.engines, tokenColumns);
  const v = verdict(state.engines, update.engines);
  $("verdict").innerHTML = verdictHtml(v);
  $("verdict").dataset.kind = v.kind;
  const problem = $("context-problem");
  problem.textContent = update.contextProblem ?? "";
  problem.hidden = !update.contextProblem;
  document.body.dataset.version = String(update.version);
  if (restoreScroll !== undefined) {
    window.scrollTo(0, restoreScroll);
    restoreScroll = undefined;
  }
}

window.addEventListener("message", (event: MessageEvent) => {
  const parsed = parseHostMessage(event.data);
  if (!parsed.ok) return console.warn(`preview: ignored a message: ${parsed.reason}`);
  const m = parsed.message;
  if (m.type === "state") return applyState(m.state);
  if (m.type === "update") {
    update = m.update;
    $("message").hidden = true;
    return renderEngines();
  }
  if (m.type === "modelOutput") {
    const pane = $("model-output");
    pane.innerHTML = modelOutputHtml(m.output);
    pane.dataset.status = m.output.status;
    pane.hidden = false;
    return;
  }
  $("message").textContent = m.message;
  $("message").hidden = false;
});

/** The output offset under a click: the element's start plus the caret's place inside its text. */
function clickedOffset(event: MouseEvent): number | null {
  const target = (event.target as HTMLElement).closest<HTMLElement>("[data-s]");
  if (!target) return null;
  const start = Number(target.dataset.s);
  const end = Number(target.dataset.e);
  const caret = document.caretRangeFromPoint?.(event.clientX, event.clientY);
  const inside =
    caret && target.contains(caret.startContainer) && end - start === (target.textContent ?? "").length ? caret.startOffset : 0;
  return Math.min(start + inside, Math.max(start, end - 1));
}

document.addEventListener("click", (event) => {
  const el = event.target as HTMLElement;
  const action = el.closest<HTMLElement>("[data-action]");
  if (action) {
    const engine = action.dataset.engine ?? "";
    if (action.dataset.action === "copy") post({ type: "copy", engine });
    else if (action.dataset.action === "diff") post({ type: "diff", engine });
    else if (action.dataset.action === "tokens") {
      if (!tokenColumns.delete(engine)) tokenColumns.add(engine);
      renderEngines();
    } else if (action.dataset.action === "reveal-error") post({ type: "revealError", engine });
    else if (action.dataset.action === "reveal-output") post({ type: "reveal", engine, offset: Number(action.dataset.offset) });
    else if (action.dataset.action === "new-scenario") post({ type: "newScenario" });
    else if (action.dataset.action === "run-model")
      post({ type: "runModel", mode: action.dataset.mode === "chat" ? "chat" : "completion" });
    else if (action.dataset.action === "stop-model") post({ type: "stopModel" });
    return;
  }
  const pre = el.closest<HTMLElement>("pre.output");
  // a drag that selected text is a selection, not a request to jump
  if (!pre || !window.getSelection()?.isCollapsed) return;
  const offset = clickedOffset(event);
  if (offset !== null) post({ type: "reveal", engine: pre.dataset.engine ?? "", offset });
});

function onControl(event: Event): void {
  const el = event.target as HTMLInputElement;
  if (el.id === "scenario") return post({ type: "selectScenario", id: el.value });
  if (el.dataset.engineToggle) return post({ type: "showEngine", engine: el.dataset.engineToggle, visible: el.checked });
  const key = el.dataset.option as OptionKey | undefined;
  if (!key) return;
  const value = optionValue(key, el.type === "checkbox" ? el.checked : el.value);
  post({ type: "setOption", key, value } as WebviewMessage);
  if (key === "showWhitespace" && state) {
    state = { ...state, options: { ...state.options, showWhitespace: value === true } };
    renderEngines();
  }
}
document.addEventListener("change", (e) => {
  // text fields report as they are typed (below); change would send them a second time
  if (!(e.target instanceof HTMLInputElement && e.target.type === "text") && !(e.target instanceof HTMLTextAreaElement)) onControl(e);
});
document.addEventListener("input", (e) => {
  if ((e.target instanceof HTMLInputElement && e.target.type === "text") || e.target instanceof HTMLTextAreaElement) onControl(e);
});

let scrollTimer: ReturnType<typeof setTimeout> | undefined;
window.addEventListener("scroll", () => {
  clearTimeout(scrollTimer);
  scrollTimer = setTimeout(() => vscode.setState({ scrollY: window.scrollY }), 100);
});

post({ type: "ready" });
