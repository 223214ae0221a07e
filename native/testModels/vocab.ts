// A small byte-level BPE vocabulary in GPT-2/Qwen form: the 256 byte tokens, merges learned from a built-in
// text, and Qwen3's chat special tokens. llama.cpp tokenizes with it exactly as with a real Qwen3 GGUF
// (tokenizer.ggml.model "gpt2", pre-tokenizer "qwen2"), just with a few hundred tokens.

/** llama.cpp token types (tokenizer.ggml.token_type). */
export const TokenType = { NORMAL: 1, CONTROL: 3, USER_DEFINED: 4 } as const;

/** As in Qwen3: control tokens are hidden when detokenizing without `special`; the tags stay visible text. */
export const SPECIAL_TOKENS: readonly { text: string; type: number }[] = [
  { text: "<|endoftext|>", type: TokenType.CONTROL },
  { text: "<|im_start|>", type: TokenType.CONTROL },
  { text: "<|im_end|>", type: TokenType.CONTROL },
  { text: "<|mask|>", type: TokenType.CONTROL },
  { text: "<tool_call>", type: TokenType.USER_DEFINED },
  { text: "</tool_call>", type: TokenType.USER_DEFINED },
  { text: "<tool_response>", type: TokenType.USER_DEFINED },
  { text: "</tool_response>", type: TokenType.USER_DEFINED },
  { text: "<think>", type: TokenType.USER_DEFINED },
  { text: "</think>", type: TokenType.USER_DEFINED },
];

// What the merges are learned from: chat, tool-call JSON and plain prose, so common words become single tokens.
const TRAINING_TEXT = `You are a helpful assistant. The user asks a question and the assistant answers it.
system user assistant tool function name arguments content role message messages tools tool_calls
{"name": "get_weather", "arguments": {"location": "Paris", "unit": "celsius"}}
{"type": "function", "function": {"name": "search", "description": "Search the web", "parameters": {"type": "object"}}}
The weather in Paris is sunny today. What is the capital of France? The capital of France is Paris.
Hello! How can I help you today? Please think step by step, then answer with the final result.
the quick brown fox jumps over the lazy dog; the cat sat on the mat and the dog ran in the park.
Write a haiku about autumn. Leaves fall, the wind is cold, and the evening comes early in the year.
1 2 3 4 5 6 7 8 9 10 100 2024 true false null "string" "number" "integer" "boolean" "array" "object"`;

/** GPT-2's reversible byte → printable-character map used by byte-level BPE vocabularies. */
export function bytesToUnicode(): string[] {
  const printable: number[] = [];
  for (let b = 33; b <= 126; b++) printable.push(b);
  for (let b = 161; b <= 172; b++) printable.push(b);
  for (let b = 174; b <= 255; b++) printable.push(b);
  const map: string[] = new Array(256);
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    map[b] = printable.includes(b) ? String.fromCharCode(b) : String.fromCharCode(256 + extra++);
  }
  return map;
}

// Qwen2's pre-tokenizer split (llama.cpp LLAMA_VOCAB_PRE_TYPE_QWEN2), so learned merges never cross its pieces.
const PRE_SPLIT =
  /'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD]|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;

/** Learns `count` BPE merges from the text, most frequent pair first (ties broken by first appearance). */
function learnMerges(text: string, count: number, byteChar: string[]): [string, string][] {
  const words = new Map<string, number>();
  for (const piece of text.match(PRE_SPLIT) ?? []) {
    const mapped = [...Buffer.from(piece, "utf8")].map((b) => byteChar[b]).join("\u0000");
    words.set(mapped, (words.get(mapped) ?? 0) + 1);
  }
  let corpus = [...words].map(([w, n]) => ({ symbols: w.split("\u0000"), n }));
  const merges: [string, string][] = [];
  while (merges.length < count) {
    const pairs = new Map<string, number>();
    for (const { symbols, n } of corpus) {
      for (let i = 0; i + 1 < symbols.length; i++) {
        const k = symbols[i] + "\u0000" + symbols[i + 1];
        pairs.set(k, (pairs.get(k) ?? 0) + n);
      }
    }
    let best = "";
    let bestN = 1;
    for (const [k, n] of pairs) if (n > bestN) [best, bestN] = [k, n];
    if (!best) break;
    const [a, b] = best.split("\u0000");
    merges.push([a, b]);
    corpus = corpus.map(({ symbols, n }) => {
      const out: string[] = [];
      for (let i = 0; i < symbols.length; i++) {
        if (symbols[i] === a && symbols[i + 1] === b) {
          out.push(a + b);
          i++;
        } else out.push(symbols[i]);
      }
      return { symbols: out, n };
    });
  }
  return merges;
}

export interface Vocab {
  tokens: string[];
  types: number[];
  /** "a b" strings, in rank order, as tokenizer.ggml.merges stores them. */
  merges: string[];
  /** Token id of each special token text. */
  special: Record<string, number>;
  /** Token id of a single ASCII character (its byte token). */
  char(c: string): number;
}

/** `userDefined`: more tokens after the special ones, each matched and printed as its whole text (the scripted target's pieces). */
export function buildVocab(nMerges = 200, userDefined: readonly string[] = []): Vocab {
  const byteChar = bytesToUnicode();
  const tokens = [...byteChar];
  const types: number[] = tokens.map(() => TokenType.NORMAL);
  const merges = learnMerges(TRAINING_TEXT, nMerges, byteChar);
  for (const [a, b] of merges) {
    // two merge paths can spell the same token; the vocabulary holds it once
    if (tokens.includes(a + b)) continue;
    tokens.push(a + b);
    types.push(TokenType.NORMAL);
  }
  const special: Record<string, number> = {};
  for (const s of [...SPECIAL_TOKENS, ...userDefined.map((text) => ({ text, type: TokenType.USER_DEFINED }))]) {
    special[s.text] = tokens.length;
    tokens.push(s.text);
    types.push(s.type);
  }
  return {
    tokens,
    types,
    merges: merges.map(([a, b]) => `${a} ${b}`),
    special,
    char: (c) => c.charCodeAt(0),
  };
}
