// A GGUF with a real (tiny) tokenizer and no tensors: byte-level BPE as in Qwen (tokenizer.ggml.model
// "gpt2", pre-tokenizer "qwen2"), the 256 byte tokens, merges that spell "hello", and chat special
// tokens. llama.cpp loads its vocabulary like a real model's; there are no weights to load.
import { ValueType, type GGUFValue } from "../../server/src/gguf/types";
import { gguf, writeGGUF } from "../../server/src/gguf/writer";

/** GPT-2's reversible byte → printable-character map. */
function byteTokens(): string[] {
  const printable = (b: number) => (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174;
  let extra = 0;
  return Array.from({ length: 256 }, (_, b) => String.fromCharCode(printable(b) ? b : 256 + extra++));
}

const MERGES = ["h e", "l l", "he ll", "hell o"];
export const SPECIALS = { "<|endoftext|>": 3, "<|im_start|>": 3, "<|im_end|>": 3, "<think>": 4 } as const;

export function writeVocabGGUF(file: string, extra: [string, GGUFValue][] = []): void {
  const tokens = [...byteTokens(), ...MERGES.map((m) => m.replace(" ", "")), ...Object.keys(SPECIALS)];
  const types = tokens.map((t) => (SPECIALS as Record<string, number>)[t] ?? 1);
  const id = (t: string) => tokens.indexOf(t);
  const metadata = new Map<string, GGUFValue>([
    ["general.architecture", gguf.str("qwen3")],
    ["general.name", gguf.str("vocab only")],
    ["qwen3.context_length", gguf.u32(4096)],
    ["qwen3.embedding_length", gguf.u32(64)],
    ["qwen3.block_count", gguf.u32(1)],
    ["qwen3.feed_forward_length", gguf.u32(128)],
    ["qwen3.attention.head_count", gguf.u32(4)],
    ["qwen3.attention.head_count_kv", gguf.u32(2)],
    ["qwen3.attention.key_length", gguf.u32(16)],
    ["qwen3.attention.value_length", gguf.u32(16)],
    ["qwen3.rope.freq_base", gguf.f32(1e6)],
    ["qwen3.attention.layer_norm_rms_epsilon", gguf.f32(1e-6)],
    ["tokenizer.ggml.model", gguf.str("gpt2")],
    ["tokenizer.ggml.pre", gguf.str("qwen2")],
    ["tokenizer.ggml.tokens", gguf.arr(ValueType.STRING, tokens)],
    ["tokenizer.ggml.token_type", gguf.arr(ValueType.INT32, types)],
    ["tokenizer.ggml.merges", gguf.arr(ValueType.STRING, MERGES)],
    ["tokenizer.ggml.bos_token_id", gguf.u32(id("<|endoftext|>"))],
    ["tokenizer.ggml.eos_token_id", gguf.u32(id("<|im_end|>"))],
    ["tokenizer.ggml.add_bos_token", gguf.bool(false)],
    ...extra,
  ]);
  writeGGUF(file, metadata, []);
}
