// What a GGUF says about its tokenizer that the checks of a template against the model need: every token's
// text, the bos/eos texts, the tokens that end a turn (eos, eot, eom), and whether the tokenizer adds BOS
// itself. The shape of the analysis layer's ModelTokenizer, read here so `check --gguf` and the language
// server read a model the same way.
import { specialToken } from "./metadata";
import { type GGUFHeader, ValueType } from "./types";

export interface Vocabulary {
  tokens: ReadonlySet<string>;
  bos: string | null;
  eos: string | null;
  endOfGeneration: readonly string[];
  addsBos: boolean;
}

export function vocabularyOf(h: GGUFHeader): Vocabulary {
  const v = h.metadata.get("tokenizer.ggml.tokens");
  const tokens = new Set(v?.type === ValueType.ARRAY ? v.value.filter((t): t is string => typeof t === "string") : []);
  const addBos = h.metadata.get("tokenizer.ggml.add_bos_token");
  const text = (which: "bos" | "eos" | "eot") => specialToken(h, which)?.text ?? null;
  const eom = h.metadata.get("tokenizer.ggml.eom_token_id");
  const eomText =
    eom && eom.type !== ValueType.ARRAY && eom.type !== ValueType.STRING && eom.type !== ValueType.BOOL && v?.type === ValueType.ARRAY
      ? v.value[Number(eom.value)]
      : undefined;
  const endOfGeneration = [
    ...new Set([text("eos"), text("eot"), typeof eomText === "string" ? eomText : null].filter((t): t is string => t !== null)),
  ];
  return { tokens, bos: text("bos"), eos: text("eos"), endOfGeneration, addsBos: addBos?.type === ValueType.BOOL ? addBos.value : false };
}
