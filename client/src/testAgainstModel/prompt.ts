// What "Test Template Against Model" sends for the previewed template and scenario: the prompt as the
// preview's reference engine (Jinja2, as HF transformers runs it) renders it, and the same conversation
// as a chat request, for llama.cpp's chat layer (the parse of the output, and "send as chat").
import type { TemplateDocument } from "../../../server/src/document";
import type { PyDict, WallClock } from "../../../server/src/interpreter";
import type { PreviewEngine } from "../preview/engines/engine";
import { contextJson } from "../preview/model/context";

export type RenderedPrompt = { ok: true; prompt: string } | { ok: false; message: string };

/**
 * The prompt as `reference` renders it: the reference dialect in a helper process with limits
 * (dialectProcess.ts), so that a template that exhausts one is an error here, not a dead extension host.
 * null: a newer test's render replaced this one.
 */
export async function renderPrompt(
  reference: PreviewEngine,
  input: { doc: TemplateDocument; context: PyDict; now: WallClock },
): Promise<RenderedPrompt | null> {
  const r = await reference.render({ ...input, json: contextJson(input.context) });
  if (!r) return null;
  if (r.status === "ok") return { ok: true, prompt: r.output };
  if (r.status === "unavailable") return { ok: false, message: `the template was not rendered: ${r.reason}` };
  const at = r.error.line === null ? "" : ` (line ${r.error.line}, column ${r.error.column})`;
  return { ok: false, message: `the template does not render${at}: ${r.error.message}` };
}

export interface ChatRequestJson {
  messages: unknown[];
  tools?: unknown[];
  add_generation_prompt?: boolean;
  chat_template_kwargs?: Record<string, unknown>;
}

/** bos/eos are the model's own in llama.cpp's chat layer; every other context variable goes to the template as a kwarg. */
const NOT_KWARGS = new Set(["messages", "tools", "add_generation_prompt", "bos_token", "eos_token"]);

export function chatRequestOf(context: PyDict): ChatRequestJson {
  const json = JSON.parse(contextJson(context)) as Record<string, unknown>;
  const kwargs = Object.fromEntries(Object.entries(json).filter(([k]) => !NOT_KWARGS.has(k)));
  return {
    messages: Array.isArray(json.messages) ? json.messages : [],
    ...(Array.isArray(json.tools) && json.tools.length ? { tools: json.tools } : {}),
    ...(typeof json.add_generation_prompt === "boolean" ? { add_generation_prompt: json.add_generation_prompt } : {}),
    ...(Object.keys(kwargs).length ? { chat_template_kwargs: kwargs } : {}),
  };
}
