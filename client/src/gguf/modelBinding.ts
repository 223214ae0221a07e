// What the preview and the endpoint know of a model a template is bound to (a GGUF): its special
// token texts and a tokenizer. Declared here, beside the code that reads them from the file, so the
// preview depends on gguf/ and not the other way round.

/** The special token texts of a bound model; "" where its vocabulary has none. */
export interface ModelTokens {
  bosToken: string;
  eosToken: string;
}

/** One token as the tokenizer gives it: its id, the text it stands for, whether it is a special (control) token. */
export interface TokenPiece {
  id: number;
  text: string;
  special: boolean;
}

/** The model's BOS token and whether llama.cpp adds it in front of every prompt. */
export interface BosInfo {
  id: number;
  addedByRuntime: boolean;
}

export interface Tokenizer {
  count(text: string): Promise<number>;
  /** The tokens of a text, special tokens parsed, no BOS added. */
  tokenize(text: string): Promise<TokenPiece[]>;
  bos: BosInfo | null;
}

/** Where the preview's token counts come from: a bound GGUF, or the running endpoint. */
export interface TokenizerSource {
  label: string;
  /** Loaded on first use; a rejection says why counts are unavailable. */
  tokenizer(): Promise<Tokenizer>;
}

/** A model file the template is bound to (a GGUF): its special tokens and tokenizer. */
export interface ModelBinding extends ModelTokens, TokenizerSource {
  /** Texts of its control and user-defined tokens. */
  specialTokens: readonly string[];
}
