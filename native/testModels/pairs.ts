// Tiny target + DFlash draft pairs for tests, the demo endpoint and the benchmark.
//
// random: Gaussian weights. Output is gibberish and the draft rarely agrees with the target, which is what
//   the lossless tests want (DFlash must still reproduce plain greedy decoding token for token).
// constructed: hand-set weights whose behaviour is known exactly, so acceptance can be predicted.
//   Target: attention and FFN are zero, so its residual stream is the token embedding, and the embedding of
//   token t is the one-hot code of its successor succ(t); the LM head maps codes back to tokens. Greedy
//   decoding therefore walks a fixed cycle of CYCLE tokens ("abc…x") from any start.
//   Draft: one attention head whose query (from the mask token) and key (from a constant embedding
//   dimension that every real token has) are rotated so that, through RoPE, each mask position attends to
//   the position LOOKBACK = CYCLE + 1 before it and copies that token's code. Through the borrowed LM head
//   it proposes succ(x[p - LOOKBACK]), which is x[p] once the output has run one full cycle.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeGGUF } from "../../server/src/gguf";
import { agentDemoMetadata } from "./agentDemo";
import { dflashModel, qwen3Model, type AttentionShape, type DraftShape, type Weights } from "./architectures";
import { QWEN3_CHAT_TEMPLATE } from "./chatTemplate";
import { gaussian, rng } from "./rng";
import { buildVocab, type Vocab } from "./vocab";

export const CYCLE = 24;
export const LOOKBACK = CYCLE + 1;

export interface PairFiles {
  kind: "random" | "constructed" | "falling" | "scripted";
  target: string;
  draft: string;
  blockSize: number;
}

export interface ConstructedPair extends PairFiles {
  kind: "constructed";
  /** The target's greedy next token for every token id. */
  successor: number[];
  /** The draft proposes successor[x[p - lookback]] at position p. */
  lookback: number;
}

export const TARGET: AttentionShape = {
  nLayer: 4,
  nEmbd: 64,
  nHead: 4,
  nHeadKv: 2,
  headDim: 16,
  nFf: 128,
  ropeBase: 1e6,
  contextLength: 4096,
};
export const RANDOM_DRAFT: DraftShape = {
  nLayer: 1,
  nEmbd: 64,
  nHead: 4,
  nHeadKv: 2,
  headDim: 16,
  nFf: 128,
  ropeBase: 1e6,
  contextLength: 4096,
  blockSize: 16,
  targetLayers: [1, 3],
};

/** Each tensor draws from its own stream (seed, name), so a tensor's values do not depend on call order. */
export function randomWeights(seed: number, nEmbd: number): Weights {
  return (name, dims) => {
    let h = seed >>> 0;
    for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
    const g = gaussian(rng(h));
    const n = dims.reduce((a, b) => a * b, 1);
    const out = new Float32Array(n);
    if (name.endsWith("norm.weight")) return out.fill(1);
    // fan-in scaling keeps activations O(1); the LM head is wider so that greedy choices have clear margins
    const scale = name === "token_embd.weight" ? 1 : name === "output.weight" ? 3 / Math.sqrt(nEmbd) : 1 / Math.sqrt(dims[0]);
    for (let i = 0; i < n; i++) out[i] = g() * scale;
    return out;
  };
}

/**
 * Makes a random target likely to open a tool call: the embedding of "\n" gets a strong component along
 * the LM-head row of <tool_call>, and that of <tool_call> along the row of "\n". Through the residual
 * stream the next token then mostly follows, so under llama.cpp's tool-call grammar (free text, then
 * "<tool_call>\n" and JSON the grammar forces) a random model produces calls within a few tokens.
 */
function withToolCalls(weights: Weights, vocab: Vocab, nEmbd: number): Weights {
  const newline = vocab.char("\n");
  const open = vocab.special["<tool_call>"];
  return (name, dims) => {
    const w = weights(name, dims);
    if (name !== "token_embd.weight") return w;
    const head = weights("output.weight", [nEmbd, vocab.tokens.length]);
    const push = (from: number, toward: number) => {
      const row = head.subarray(toward * nEmbd, (toward + 1) * nEmbd);
      const norm = Math.hypot(...row);
      for (let i = 0; i < nEmbd; i++) w[from * nEmbd + i] += (8 * row[i]) / norm;
    };
    push(newline, open);
    push(open, newline);
    return w;
  };
}

export interface PairOptions {
  seed?: number;
  /** Overrides of the draft's shape, for tests of mismatched pairs. */
  draft?: Partial<DraftShape>;
  /** A vocabulary for the draft other than the target's, for tokenizer-mismatch tests. */
  draftVocab?: Vocab;
  /** Bias the target toward opening tool calls (see withToolCalls). */
  toolCalls?: boolean;
  /** The target's tokenizer.chat_template instead of Qwen3's. */
  chatTemplate?: string;
  /** Mark the target as the agent demo (agentDemo.ts): the endpoint then steers its tool turns. */
  agentDemo?: boolean;
}

export function writeRandomPair(dir: string, name = "random", options: PairOptions = {}): PairFiles {
  mkdirSync(dir, { recursive: true });
  const seed = options.seed ?? 1;
  const vocab = buildVocab();
  const draftShape = { ...RANDOM_DRAFT, ...options.draft };
  const files = {
    kind: "random" as const,
    target: join(dir, `${name}-target.gguf`),
    draft: join(dir, `${name}-draft.gguf`),
    blockSize: draftShape.blockSize,
  };
  const targetWeights = randomWeights(seed, TARGET.nEmbd);
  const t = qwen3Model(
    "random test target",
    TARGET,
    vocab,
    options.chatTemplate ?? QWEN3_CHAT_TEMPLATE,
    options.toolCalls ? withToolCalls(targetWeights, vocab, TARGET.nEmbd) : targetWeights,
  );
  if (options.agentDemo) t.metadata.set(...agentDemoMetadata());
  writeGGUF(files.target, t.metadata, t.tensors);
  const d = dflashModel("random test draft", draftShape, options.draftVocab ?? vocab, randomWeights(seed + 1000, draftShape.nEmbd));
  writeGGUF(files.draft, d.metadata, d.tensors);
  return files;
}

// Embedding dimensions of the constructed pair: [0, CYCLE) hold successor codes, A is 1 for every real
// token (the draft's key reads it), M is 1 for the mask token only (the draft's query reads it).
export const DIM_A = 62;
export const DIM_M = 63;
export const GAIN_HEAD = 4;
const GAIN_QK = 3;
/** RoPE base below 1 gives the 32 rotary frequencies in [1, π): their cosines never all realign, so the
 * attention score peaks only at the intended offset (off-peak ≤ 0.37 of the peak over 2048 positions). */
const DRAFT_ROPE_BASE = 1 / Math.PI;
// a window as long as the context changes nothing, and lets --draft-window shorten it (the loader needs the key)
export const CONSTRUCTED_DRAFT: DraftShape = {
  nLayer: 1,
  nEmbd: 64,
  nHead: 1,
  nHeadKv: 1,
  headDim: 64,
  nFf: 64,
  ropeBase: DRAFT_ROPE_BASE,
  contextLength: 4096,
  blockSize: 16,
  targetLayers: [1, 3],
  slidingWindow: 1 << 20,
};

export function constructedWeights(vocab: Vocab, successor: number[], cycle: number[]): { target: Weights; draft: Weights } {
  const nVocab = vocab.tokens.length;
  const E = TARGET.nEmbd;
  const mask = vocab.special["<|mask|>"];
  const zeros = (dims: number[]) => new Float32Array(dims.reduce((a, b) => a * b, 1));
  const target: Weights = (name, dims) => {
    const w = zeros(dims);
    if (name.endsWith("norm.weight")) return w.fill(1);
    if (name === "token_embd.weight") {
      for (let t = 0; t < nVocab; t++) {
        if (t === mask) w[t * E + DIM_M] = 1;
        else {
          w[t * E + cycle.indexOf(successor[t])] = 1;
          w[t * E + DIM_A] = 1;
        }
      }
    }
    if (name === "output.weight") cycle.forEach((tok, code) => (w[tok * E + code] = GAIN_HEAD));
    return w; // every layer's matrices stay zero: the residual stream is the embedding
  };
  const hd = CONSTRUCTED_DRAFT.headDim;
  const half = hd / 2;
  const theta = (i: number) => Math.pow(DRAFT_ROPE_BASE, (-2 * i) / hd);
  const draft: Weights = (name, dims) => {
    const w = zeros(dims);
    if (name === "blk.0.attn_q_norm.weight" || name === "blk.0.attn_k_norm.weight") return w.fill(GAIN_QK);
    if (name.endsWith("norm.weight")) return w.fill(1);
    const inputs = dims[0];
    if (name === "fc.weight") for (let o = 0; o < E; o++) w[o * inputs + o] = 1; // the first target layer's features
    if (name === "blk.0.attn_k.weight") for (let i = 0; i < half; i++) w[i * inputs + DIM_A] = 1;
    if (name === "blk.0.attn_q.weight") {
      // the key rotated back by LOOKBACK positions (NeoX pairs i, i + hd/2), so q·k peaks at that distance
      for (let i = 0; i < half; i++) {
        w[i * inputs + DIM_M] = Math.cos(-LOOKBACK * theta(i));
        w[(i + half) * inputs + DIM_M] = Math.sin(-LOOKBACK * theta(i));
      }
    }
    if (name === "blk.0.attn_v.weight" || name === "blk.0.attn_output.weight") for (let o = 0; o < CYCLE; o++) w[o * inputs + o] = 1;
    return w;
  };
  return { target, draft };
}

/** The cycle "abc…x" as tokens, and every token's successor on it (a token off the cycle leads into it). */
export function constructedCycle(vocab: Vocab): { cycle: number[]; successor: number[] } {
  const cycle = Array.from({ length: CYCLE }, (_, i) => vocab.char(String.fromCharCode(97 + i)));
  const successor = vocab.tokens.map((_, t) => {
    const k = cycle.indexOf(t);
    return k >= 0 ? cycle[(k + 1) % CYCLE] : cycle[t % CYCLE];
  });
  return { cycle, successor };
}

export function writeConstructedPair(dir: string, name = "constructed"): ConstructedPair {
  mkdirSync(dir, { recursive: true });
  const vocab = buildVocab();
  const { cycle, successor } = constructedCycle(vocab);
  const w = constructedWeights(vocab, successor, cycle);
  const files: ConstructedPair = {
    kind: "constructed",
    target: join(dir, `${name}-target.gguf`),
    draft: join(dir, `${name}-draft.gguf`),
    blockSize: CONSTRUCTED_DRAFT.blockSize,
    successor,
    lookback: LOOKBACK,
  };
  const t = qwen3Model("constructed test target", TARGET, vocab, QWEN3_CHAT_TEMPLATE, w.target);
  writeGGUF(files.target, t.metadata, t.tensors);
  const d = dflashModel("constructed test draft", CONSTRUCTED_DRAFT, vocab, w.draft);
  writeGGUF(files.draft, d.metadata, d.tensors);
  return files;
}
