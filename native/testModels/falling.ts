// A constructed pair whose acceptance falls with context in a known way, for the adaptive draft length.
//
// The target is the constructed pair's (it walks the cycle "abc…x"), with one more LM-head row: token "z",
// off the cycle, so the target never produces it. The draft keeps the constructed draft's look-back head and
// adds what lets it "forget" the cycle as the context grows, letter by letter:
//   - a second head with zero query and key attends uniformly to everything the block sees (the n committed
//     positions and the block's 16), and reads 1 from each of the block's 15 mask tokens: s = 15 / (n + 16);
//   - FFN unit k fires when the look-back head copied letter k (code_k = 1) and code_k > T_k · s, i.e. when
//     n > forgetsAfter[k]; it writes a large value into the dimension the LM head maps to "z".
// So at a draft step with n tokens in the cache the draft proposes "z", always rejected, instead of every
// letter k with n > forgetsAfter[k]: all of them past the last threshold, none below the first.
// Thresholds sit half a position between integers and the gate's gain turns that half position into a clear
// margin, so the engine's float arithmetic decides like the integer rule (the tests check it step by step).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeGGUF } from "../../server/src/gguf";
import { dflashModel, qwen3Model, type DraftShape, type Weights } from "./architectures";
import { QWEN3_CHAT_TEMPLATE } from "./chatTemplate";
import {
  CONSTRUCTED_DRAFT,
  CYCLE,
  DIM_M,
  GAIN_HEAD,
  LOOKBACK,
  TARGET,
  constructedCycle,
  constructedWeights,
  type PairFiles,
} from "./pairs";
import { buildVocab } from "./vocab";

/** Letter k of the cycle is forgotten once the context passes FALL_START + k · FALL_STEP tokens. */
export const FALL_START = 1024;
export const FALL_STEP = 256;

export interface FallingPair extends PairFiles {
  kind: "falling";
  successor: number[];
  lookback: number;
  /** The cycle's tokens, "a" … "x". */
  cycle: number[];
  /** forgetsAfter[k]: at a draft step with more tokens than this in the cache, the draft misses cycle[k]. */
  forgetsAfter: number[];
  /** What the draft proposes instead of a forgotten letter ("z", which the target never produces). */
  forgotten: number;
}

// free dimensions of the constructed embedding: [0, CYCLE) are codes, 62 and 63 the constant ones
const DIM_S = 32; // the second head's 15 / (n + 16)
const DIM_Z = 33; // the LM head maps it to "z"
const N_FF = 32;
/** Gate gain: half a position at 7000 tokens of context is 7e-5 of the gate's input, which this turns into ±40. */
const GAIN_GATE = 1e5;
const RMS_EPS = 1e-6; // architectures.ts writes layer_norm_rms_epsilon = 1e-6
const FALL_CONTEXT = 16384;

const TARGET_SHAPE = { ...TARGET, contextLength: FALL_CONTEXT };
const DRAFT_SHAPE: DraftShape = { ...CONSTRUCTED_DRAFT, nHead: 2, nHeadKv: 2, nFf: N_FF, contextLength: FALL_CONTEXT };

/** The value an RMS norm (weight 1) gives each of `ones` unit entries of a 64-wide vector, as ggml computes it. */
const normed = (ones: number) => 1 / Math.fround(Math.sqrt(Math.fround(Math.fround(ones / TARGET.nEmbd) + Math.fround(RMS_EPS))));

function fallingWeights(base: { target: Weights; draft: Weights }, forgetsAfter: number[], forgotten: number) {
  const E = TARGET.nEmbd;
  const hd = DRAFT_SHAPE.headDim;
  const masks = DRAFT_SHAPE.blockSize - 1;
  const target: Weights = (name, dims) => {
    const w = base.target(name, dims);
    if (name === "output.weight") w[forgotten * E + DIM_Z] = GAIN_HEAD;
    return w;
  };
  // the constructed draft's single head becomes head 1 (the first hd outputs of q, k, v; inputs of the output)
  const headOne = (name: string, dims: number[]) => base.draft(name, dims[0] === E ? [E, hd] : [hd, E]);
  const draft: Weights = (name, dims) => {
    const w = new Float32Array(dims.reduce((a, b) => a * b, 1));
    switch (name) {
      case "blk.0.attn_q.weight":
      case "blk.0.attn_k.weight":
        w.set(headOne(name, dims)); // head 2: zero query and key, so uniform attention
        return w;
      case "blk.0.attn_v.weight":
        // head 1 copies the code as exactly 1 (a context position's features are normed with two unit
        // entries, the letter's code and the constant one); head 2 reads 1 from each mask token
        for (let o = 0; o < CYCLE; o++) w[o * E + o] = 1 / normed(2);
        w[hd * E + DIM_M] = 1 / normed(1);
        return w;
      case "blk.0.attn_output.weight": {
        const inputs = dims[0];
        for (let o = 0; o < CYCLE; o++) w[o * inputs + o] = 1;
        w[DIM_S * inputs + hd] = 1;
        return w;
      }
      case "blk.0.ffn_gate.weight":
        forgetsAfter.forEach((n, k) => {
          w[k * E + k] = GAIN_GATE;
          w[k * E + DIM_S] = (-GAIN_GATE * (n + DRAFT_SHAPE.blockSize + 0.5)) / masks;
        });
        return w;
      case "blk.0.ffn_up.weight":
        for (let k = 0; k < CYCLE; k++) w[k * E + DIM_M] = 1;
        return w;
      case "blk.0.ffn_down.weight":
        for (let k = 0; k < CYCLE; k++) w[DIM_Z * N_FF + k] = 1;
        return w;
      default:
        return base.draft(name, dims);
    }
  };
  return { target, draft };
}

export function writeFallingPair(dir: string, name = "falling"): FallingPair {
  mkdirSync(dir, { recursive: true });
  const vocab = buildVocab();
  const { cycle, successor } = constructedCycle(vocab);
  const forgetsAfter = cycle.map((_, k) => FALL_START + k * FALL_STEP);
  const forgotten = vocab.char("z");
  const w = fallingWeights(constructedWeights(vocab, successor, cycle), forgetsAfter, forgotten);
  const files: FallingPair = {
    kind: "falling",
    target: join(dir, `${name}-target.gguf`),
    draft: join(dir, `${name}-draft.gguf`),
    blockSize: DRAFT_SHAPE.blockSize,
    successor,
    lookback: LOOKBACK,
    cycle,
    forgetsAfter,
    forgotten,
  };
  const t = qwen3Model("falling-acceptance test target", TARGET_SHAPE, vocab, QWEN3_CHAT_TEMPLATE, w.target);
  writeGGUF(files.target, t.metadata, t.tensors);
  const d = dflashModel("falling-acceptance test draft", DRAFT_SHAPE, vocab, w.draft);
  writeGGUF(files.draft, d.metadata, d.tensors);
  return files;
}
