// scripted: a target that writes given token sequences, so that tests of tool calling drive the real
// engine, llama.cpp's chat layer (its lazy tool-call grammar) and its parser, and know what the model said.
//
// As in the constructed target, attention and FFN are zero, so the next token depends on the last token
// only: the embedding of token t holds one code per token that may follow it, and the LM head maps each
// code to its token. One follower gets every bit of probability; two get half each, so a sample follows
// one branch or the other as its seed decides. The script's pieces (a whole tool call's JSON, …) are
// user-defined tokens, so no piece repeats inside a sequence and one token can lead on to the next.
// Tokens the script does not name are followed by <|im_end|> (end of turn).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeGGUF } from "../../server/src/gguf";
import { dflashModel, qwen3Model, type Weights } from "./architectures";
import { QWEN3_CHAT_TEMPLATE } from "./chatTemplate";
import { RANDOM_DRAFT, randomWeights, TARGET, type PairFiles } from "./pairs";
import { buildVocab } from "./vocab";

/** Token text → the token texts that may follow it, equally likely. */
export type Script = Readonly<Record<string, readonly string[]>>;

const END = "<|im_end|>";
/** The arguments of the well-formed call, after "<tool_call>": with its newline, llama.cpp's grammar trigger. */
export const GOOD_CALL_BODY = '\n{"name": "get_weather", "arguments": {"city": "Paris"}}';
export const GOOD_CALL_CLOSE = "\n</tool_call>";
/** A malformed call: no newline after the tag (so the grammar never starts) and a number where the schema wants a string. */
export const BAD_CALL = '<tool_call>{"name": "get_weather", "arguments": {"city": 42}}</tool_call>';
export const REASONING = "The user wants the weather in Paris.";

/**
 * After a plain generation prompt ("…assistant\n"): always the well-formed Hermes/Qwen call. After a
 * thinking opener ("…assistant\n<think>"): reasoning, then the well-formed call or the malformed one,
 * half and half. So two templates that differ only in their generation prompt get 100 % and about 50 %.
 */
export const TOOL_CALL_SCRIPT: Script = {
  "\n": ["<tool_call>"],
  "<tool_call>": [GOOD_CALL_BODY],
  [GOOD_CALL_BODY]: [GOOD_CALL_CLOSE],
  [GOOD_CALL_CLOSE]: [END],
  "<think>": [REASONING],
  [REASONING]: ["</think>"],
  "</think>": ["<tool_call>", BAD_CALL],
  [BAD_CALL]: [END],
};

const GAIN_HEAD = 4;

export function writeScriptedPair(dir: string, name = "scripted", script: Script = TOOL_CALL_SCRIPT): PairFiles {
  mkdirSync(dir, { recursive: true });
  const texts = [...new Set([...Object.keys(script), ...Object.values(script).flat()])];
  const probe = buildVocab();
  const vocab = buildVocab(
    undefined,
    texts.filter((t) => !probe.tokens.includes(t) && !(t in probe.special)),
  );
  const id = (text: string): number => {
    const t = text in vocab.special ? vocab.special[text] : text.length === 1 && text.charCodeAt(0) < 128 ? vocab.char(text) : -1;
    if (t < 0) throw new Error(`scripted token ${JSON.stringify(text)} is not in the vocabulary`);
    return t;
  };
  const E = TARGET.nEmbd;
  const followers = [...new Set([END, ...Object.values(script).flat()])].map(id);
  if (followers.length > E) throw new Error(`a script may name at most ${E} distinct following tokens`);
  const code = new Map(followers.map((t, i) => [t, i]));
  const next = new Map(Object.entries(script).map(([from, to]) => [id(from), to.map(id)]));
  const target: Weights = (tensor, dims) => {
    const w = new Float32Array(dims.reduce((a, b) => a * b, 1));
    if (tensor.endsWith("norm.weight")) return w.fill(1);
    if (tensor === "token_embd.weight") {
      for (let t = 0; t < vocab.tokens.length; t++) for (const f of next.get(t) ?? [id(END)]) w[t * E + code.get(f)!] = 1;
    }
    if (tensor === "output.weight") for (const [t, c] of code) w[t * E + c] = GAIN_HEAD;
    return w; // every layer's matrices stay zero: the residual stream is the embedding
  };
  const files: PairFiles = {
    kind: "scripted",
    target: join(dir, `${name}-target.gguf`),
    draft: join(dir, `${name}-draft.gguf`),
    blockSize: RANDOM_DRAFT.blockSize,
  };
  const t = qwen3Model("scripted test target", TARGET, vocab, QWEN3_CHAT_TEMPLATE, target);
  writeGGUF(files.target, t.metadata, t.tensors);
  const d = dflashModel("scripted test draft", RANDOM_DRAFT, vocab, randomWeights(1000, RANDOM_DRAFT.nEmbd));
  writeGGUF(files.draft, d.metadata, d.tensors);
  return files;
}
