// Typed lookups of the metadata a chat-template tool needs: templates, special tokens, architecture.
import { ValueType, type GGUFHeader } from "./types";

const TEMPLATE_KEY = "tokenizer.chat_template";

export function stringValue(h: GGUFHeader, key: string): string | undefined {
  const v = h.metadata.get(key);
  return v?.type === ValueType.STRING ? v.value : undefined;
}

export function numberValue(h: GGUFHeader, key: string): number | undefined {
  const v = h.metadata.get(key);
  if (!v || v.type === ValueType.ARRAY || v.type === ValueType.STRING || v.type === ValueType.BOOL) return undefined;
  return Number(v.value);
}

/** The default template (name undefined) or a named variant such as "tool_use". */
export function chatTemplate(h: GGUFHeader, name?: string): string | undefined {
  return stringValue(h, name ? `${TEMPLATE_KEY}.${name}` : TEMPLATE_KEY);
}

/** Names of the named template variants (`tokenizer.chat_template.NAME`), in file order. */
export function chatTemplateNames(h: GGUFHeader): string[] {
  return [...h.metadata.keys()].filter((k) => k.startsWith(TEMPLATE_KEY + ".")).map((k) => k.slice(TEMPLATE_KEY.length + 1));
}

/** The text of a special token (`bos`, `eos`, …) from the vocabulary, as templates see `bos_token`. */
export function specialToken(h: GGUFHeader, which: "bos" | "eos" | "eot" | "pad"): { id: number; text: string } | undefined {
  const id = numberValue(h, `tokenizer.ggml.${which}_token_id`);
  const tokens = h.metadata.get("tokenizer.ggml.tokens");
  if (id === undefined || tokens?.type !== ValueType.ARRAY || tokens.itemType !== ValueType.STRING) return undefined;
  const text = tokens.value[id];
  return typeof text === "string" ? { id, text } : undefined;
}
