// What the editor needs from a GGUF: its chat templates, its bos/eos texts and which token texts are
// special — read from the header only (server/src/gguf streams it and never touches tensor data).
import { chatTemplate, chatTemplateNames, readGGUFHeader, specialToken, ValueType } from "../../../server/src/gguf";

/** llama.cpp's token types (tokenizer.ggml.token_type) that render as markup rather than text. */
const CONTROL = 3;
const USER_DEFINED = 4;

export interface ModelInfo {
  file: string;
  /** The default template (name null) first, then the named variants in file order. */
  templates: { name: string | null; text: string }[];
  /** As llama.cpp hands them to templates: the token's text, "" when the vocabulary has none. */
  bosToken: string;
  eosToken: string;
  specialTokens: string[];
}

/** Throws GGUFError (with the byte offset) for a file that is not a whole, well-formed GGUF. */
export function readModelInfo(file: string): ModelInfo {
  const h = readGGUFHeader(file);
  const templates: ModelInfo["templates"] = [];
  const main = chatTemplate(h);
  if (main !== undefined) templates.push({ name: null, text: main });
  for (const name of chatTemplateNames(h)) templates.push({ name, text: chatTemplate(h, name)! });
  const tokens = h.metadata.get("tokenizer.ggml.tokens");
  const types = h.metadata.get("tokenizer.ggml.token_type");
  const specialTokens = new Set<string>();
  if (tokens?.type === ValueType.ARRAY && types?.type === ValueType.ARRAY) {
    types.value.forEach((t, i) => {
      const text = tokens.value[i];
      if ((t === CONTROL || t === USER_DEFINED) && typeof text === "string") specialTokens.add(text);
    });
  }
  const bosToken = specialToken(h, "bos")?.text ?? "";
  const eosToken = specialToken(h, "eos")?.text ?? "";
  for (const t of [bosToken, eosToken]) if (t) specialTokens.add(t);
  return { file, templates, bosToken, eosToken, specialTokens: [...specialTokens] };
}
