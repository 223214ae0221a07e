// The model output pane's markup ("Test Template Against Model"): the raw output next to what llama.cpp's
// parser lifted out of it. A pure function, like view.ts, so tests read what the pane shows.
import type { ModelOutputView } from "../protocol";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const STATUS: Record<ModelOutputView["status"], string> = { running: "generating…", done: "done", error: "error", cancelled: "stopped" };

function figures(v: ModelOutputView): string {
  const parts = [
    v.finishReason && `finish: ${v.finishReason}`,
    v.tokensPerSecond !== null && `${v.tokensPerSecond.toFixed(1)} tokens/s`,
    v.acceptance !== null && `DFlash acceptance ${(v.acceptance * 100).toFixed(0)}%`,
  ];
  return parts.filter(Boolean).join(" · ");
}

function field(name: string, label: string, text: string): string {
  return `<div class="parsed-field" data-field="${name}"><span class="parsed-label">${label}</span><pre>${text ? esc(text) : `<span class="empty">(none)</span>`}</pre></div>`;
}

function parsedHtml(v: ModelOutputView): string {
  const p = v.parsed;
  if (!p) return v.status === "running" ? `<span class="empty">parsed when the output is complete</span>` : "";
  const calls = p.toolCalls.length
    ? p.toolCalls.map((c, i) => `<pre class="tool-call" data-tool-call="${i}"><b>${esc(c.name)}</b>(${esc(c.arguments)})</pre>`).join("")
    : `<pre><span class="empty">(none)</span></pre>`;
  return (
    field("content", "content", p.content) +
    field("reasoning", "reasoning", p.reasoning) +
    `<div class="parsed-field" data-field="tool_calls"><span class="parsed-label">tool calls</span>${calls}</div>`
  );
}

export function modelOutputHtml(v: ModelOutputView): string {
  const running = v.status === "running";
  const buttons = [
    `<button data-action="run-model" data-mode="completion"${running ? " disabled" : ""} title="Send the rendered prompt as it is to /v1/completions">Run prompt</button>`,
    `<button data-action="run-model" data-mode="chat"${running ? " disabled" : ""} title="Send the scenario to /v1/chat/completions, rendered by the served template">Send as chat</button>`,
    running ? `<button data-action="stop-model">Stop</button>` : "",
  ].join("");
  const title = v.mode === "completion" ? "Model output (raw prompt, /v1/completions)" : "Model output (chat, /v1/chat/completions)";
  const raw =
    v.raw === null
      ? `<div class="engine-note">The chat API returns the parsed message only, not the raw text.</div>`
      : `<pre class="output" id="model-raw">${esc(v.raw)}${v.raw === "" && !running ? `<span class="empty">(empty output)</span>` : ""}</pre>`;
  const error = v.error ? `<div class="error" id="model-error">${esc(v.error)}</div>` : "";
  return (
    `<header><span class="engine-label">${title}</span> <span class="badge">${STATUS[v.status]}</span> <span class="tokens">${esc(v.model)}</span> ${buttons}</header>` +
    `<div class="engine-note">${esc(v.note)}</div><div class="engine-note" id="model-figures">${esc(figures(v))}</div>${error}` +
    `<div class="model-columns"><div><div class="parsed-label">raw output</div>${raw}</div><div id="model-parsed"><div class="parsed-label">llama.cpp's parser</div>${parsedHtml(v)}</div></div>`
  );
}
