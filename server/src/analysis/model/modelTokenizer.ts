// What a template's checks need to know of the model it serves: its vocabulary and special tokens, as a
// GGUF file (or a tokenizer) declares them. Kept apart from the GGUF reader so the checks take it from
// wherever the model comes from.
export interface ModelTokenizer {
  /** Every token's text. */
  tokens: ReadonlySet<string>;
  bos: string | null;
  eos: string | null;
  /** The tokens that end the model's turn (eos, eot, eom): what a finished assistant turn ends with. */
  endOfGeneration: readonly string[];
  /** The tokenizer puts BOS in front of the prompt itself (`tokenizer.ggml.add_bos_token`). */
  addsBos: boolean;
}
