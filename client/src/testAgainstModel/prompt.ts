// What "Test Template Against Model" sends for the previewed template and scenario: the prompt as the
// preview's reference engine (Jinja2, as HF transformers runs it) renders it, and the same conversation
// as a chat request, for llama.cpp's chat layer (the parse of the output, and "send as chat").
import { dialectFor } from "../../../server/src/dialects";
import type { TemplateDocument } from "../../../server/src/document";
import { type PyDict, render, type WallClock } from "../../../server/src/interpreter";
import { contextJson } from "../preview/model/context";
import { REFERENCE_ENGINE } from "../preview/engines/engine";

export type RenderedPrompt = { ok: true; prompt: string } | { ok: false; message: string };

export function renderPrompt(doc: TemplateDocument, context: PyDict, now?: WallClock): RenderedPrompt {
  const r = render(doc, context, { dialect: dialectFor(REFERENCE_ENGINE)!, now });
  if (!r.error) return { ok: true, prompt: r.output };
  const p = doc.lines.positionAt(r.error.start);
  return { ok: false, message: `the template does not render (line ${p.line + 1}, column ${p.character + 1}): ${r.error.message}` };
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
