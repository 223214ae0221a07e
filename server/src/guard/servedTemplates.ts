// The template texts llama.cpp's chat layer parses (common_chat_templates_init, common/chat.cpp, v0.5.0):
// the override, else the model's default, else its tool_use variant; the default with the two vendor
// patches llama.cpp applies to it. A request with tools renders the tool_use variant when there is one.
import type { ModelTemplates } from "./types";

export interface ServedTemplates {
  /** null: llama.cpp's built-in ChatML, which needs no checking. */
  default: string | null;
  toolUse: string | null;
}

// "TODO @ngxson/@aldehir: temporary hack/fix" in common_chat_templates_init: conditions that raise in these
// templates are replaced before parsing, so the text llama.cpp runs is the patched one
const PATCHES: readonly { when: readonly string[]; from: string; to: string }[] = [
  {
    when: ["<|channel|>", "in message.content or"],
    from: '{%- if "<|channel|>analysis<|message|>" in message.content or "<|channel|>final<|message|>" in message.content %}',
    to: "{%- if false %}",
  },
  {
    when: ["[TOOL_CALLS]", "if (message['content'] is none or"],
    from:
      "{%- if (message['content'] is none or message['content'] == '' or message['content']|length == 0) and " +
      "(message['tool_calls'] is not defined or message['tool_calls'] is none or message['tool_calls']|length == 0) %}",
    to: "{%- if false %}",
  },
];

function patched(source: string): string {
  let s = source;
  for (const p of PATCHES) if (p.when.every((w) => s.includes(w))) s = s.split(p.from).join(p.to);
  return s;
}

/** `override` non-empty replaces the model's templates, as llama.cpp's chat_template_override does. */
export function servedTemplates(override: string, model: ModelTemplates = {}): ServedTemplates {
  const toolUse = override ? "" : (model.toolUse ?? "");
  let def = override || (model.default ?? "");
  if (def === "" || def === "chatml") def = toolUse;
  return { default: def ? patched(def) : null, toolUse: toolUse || null };
}
