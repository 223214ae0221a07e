// What llama.cpp's chat layer knows about a template's reasoning. llama-server passes enable_thinking=true
// by default only where common_chat_templates_support_enable_thinking (common/chat.cpp, v0.5.0) says so:
// it reads `supports_thinking` off an apply, which a hand-written format handler sets itself and the
// differential autoparser sets when it found reasoning markers. The markers also build the prompt of a
// continued assistant message on the autoparser's path (peg_generator::generate_parser).
import type { Dialect } from "../../interpreter";
import type { TemplateDocument } from "../../document";
import type { Caps } from "../caps/capsProbe";
import { detectToolCallFormat } from "../caps/toolCallFormat";
import { specializedHandler } from "./specializedHandlers";

export interface ReasoningMarkers {
  start: string;
  end: string;
}

const C_SPACE = /^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g;

/** The analyzer's workarounds (chat-diff-analyzer.cpp) that set or reshape the reasoning markers. */
function patched(src: string, found: ReasoningMarkers | null): ReasoningMarkers | null {
  const has = (s: string) => src.includes(s);
  if (!found && has("content.split('</think>')") && !has("reasoning_content") && !has("<SPECIAL_12>"))
    return { start: "<think>", end: "</think>" };
  if (has("Write your thoughts between <think></think> and write your response between <response></response>"))
    return { start: "<think>", end: "</think>" };
  if (["<SPECIAL_10>", "<SPECIAL_11>", "<SPECIAL_12>", "<TOOL_RESPONSE>"].every(has)) return { start: "<think>\n", end: "</think>" };
  if (found && has("laguna_glm_thinking")) return { start: found.start.replace(C_SPACE, ""), end: found.end.replace(C_SPACE, "") };
  return found;
}

/** The autoparser's reasoning markers; null where its reasoning mode is NONE. */
export function reasoningMarkers(doc: TemplateDocument, dialect: Dialect, caps: Caps): ReasoningMarkers | null {
  const { start, end } = detectToolCallFormat(doc, dialect, caps).reasoning;
  return patched(doc.text, start || end ? { start, end } : null);
}

const cache = new WeakMap<TemplateDocument, Map<Dialect, boolean>>();

/** common_chat_templates_support_enable_thinking, once per (document, dialect). */
export function supportsThinking(doc: TemplateDocument, dialect: Dialect, caps: Caps): boolean {
  let byDialect = cache.get(doc);
  if (!byDialect) cache.set(doc, (byDialect = new Map()));
  let r = byDialect.get(dialect);
  if (r === undefined) {
    const handler = specializedHandler(doc.text);
    r = handler ? handler.supportsThinking(doc.text) : reasoningMarkers(doc, dialect, caps) !== null;
    byDialect.set(dialect, r);
  }
  return r;
}
