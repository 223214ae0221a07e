// The GGUF layout of the two architectures the test models use, as llama.cpp v0.5.0 loads them:
// `qwen3` (src/models/qwen3.cpp) for the target and `dflash` (src/models/dflash.cpp) for the block-diffusion
// draft, whose token embeddings and LM head are borrowed from the target at run time.
import { GGML_TYPE, gguf, type GGUFValue, type TensorData, ValueType } from "../../server/src/gguf";
import type { Vocab } from "./vocab";

export interface AttentionShape {
  nLayer: number;
  nEmbd: number;
  nHead: number;
  nHeadKv: number;
  headDim: number;
  nFf: number;
  ropeBase: number;
  contextLength: number;
}

export interface DraftShape extends AttentionShape {
  blockSize: number;
  /** Target layers whose inputs feed the draft (llama.cpp's `dflash.target_layers`, HF ids + 1). */
  targetLayers: number[];
  /** Positions each layer attends to (`dflash.attention.sliding_window`, every layer windowed); absent: all. */
  slidingWindow?: number;
}

/** Weights by tensor name; a missing name is an error, so the shapes below are the single source of truth. */
export type Weights = (name: string, dims: number[]) => Float32Array;

const f32 = (name: string, dims: number[], weights: Weights): TensorData => {
  const values = weights(name, dims);
  const n = dims.reduce((a, b) => a * b, 1);
  if (values.length !== n) throw new Error(`weights for ${name}: ${values.length} values, shape needs ${n}`);
  return { name, dims, type: GGML_TYPE.F32, data: new Uint8Array(values.buffer, values.byteOffset, values.byteLength) };
};

function layerTensors(s: AttentionShape, i: number, w: Weights): TensorData[] {
  const p = `blk.${i}.`;
  return [
    f32(p + "attn_norm.weight", [s.nEmbd], w),
    f32(p + "attn_q.weight", [s.nEmbd, s.nHead * s.headDim], w),
    f32(p + "attn_k.weight", [s.nEmbd, s.nHeadKv * s.headDim], w),
    f32(p + "attn_v.weight", [s.nEmbd, s.nHeadKv * s.headDim], w),
    f32(p + "attn_output.weight", [s.nHead * s.headDim, s.nEmbd], w),
    f32(p + "attn_q_norm.weight", [s.headDim], w),
    f32(p + "attn_k_norm.weight", [s.headDim], w),
    f32(p + "ffn_norm.weight", [s.nEmbd], w),
    f32(p + "ffn_gate.weight", [s.nEmbd, s.nFf], w),
    f32(p + "ffn_up.weight", [s.nEmbd, s.nFf], w),
    f32(p + "ffn_down.weight", [s.nFf, s.nEmbd], w),
  ];
}

function hparams(arch: string, s: AttentionShape): [string, GGUFValue][] {
  return [
    ["general.architecture", gguf.str(arch)],
    [`${arch}.context_length`, gguf.u32(s.contextLength)],
    [`${arch}.embedding_length`, gguf.u32(s.nEmbd)],
    [`${arch}.block_count`, gguf.u32(s.nLayer)],
    [`${arch}.feed_forward_length`, gguf.u32(s.nFf)],
    [`${arch}.attention.head_count`, gguf.u32(s.nHead)],
    [`${arch}.attention.head_count_kv`, gguf.u32(s.nHeadKv)],
    [`${arch}.attention.key_length`, gguf.u32(s.headDim)],
    [`${arch}.attention.value_length`, gguf.u32(s.headDim)],
    [`${arch}.rope.freq_base`, gguf.f32(s.ropeBase)],
    [`${arch}.attention.layer_norm_rms_epsilon`, gguf.f32(1e-6)],
  ];
}

/** The tokenizer block of a Qwen3 GGUF; the draft carries the same one plus its mask token. */
function tokenizer(vocab: Vocab, chatTemplate: string | undefined): [string, GGUFValue][] {
  const entries: [string, GGUFValue][] = [
    ["tokenizer.ggml.model", gguf.str("gpt2")],
    ["tokenizer.ggml.pre", gguf.str("qwen2")],
    ["tokenizer.ggml.tokens", gguf.arr(ValueType.STRING, vocab.tokens)],
    ["tokenizer.ggml.token_type", gguf.arr(ValueType.INT32, vocab.types)],
    ["tokenizer.ggml.merges", gguf.arr(ValueType.STRING, vocab.merges)],
    ["tokenizer.ggml.bos_token_id", gguf.u32(vocab.special["<|endoftext|>"])],
    ["tokenizer.ggml.eos_token_id", gguf.u32(vocab.special["<|im_end|>"])],
    ["tokenizer.ggml.padding_token_id", gguf.u32(vocab.special["<|endoftext|>"])],
    ["tokenizer.ggml.add_bos_token", gguf.bool(false)],
  ];
  if (chatTemplate !== undefined) entries.push(["tokenizer.chat_template", gguf.str(chatTemplate)]);
  return entries;
}

export interface GGUFModel {
  metadata: Map<string, GGUFValue>;
  tensors: TensorData[];
}

export function qwen3Model(name: string, s: AttentionShape, vocab: Vocab, chatTemplate: string, w: Weights): GGUFModel {
  const nVocab = vocab.tokens.length;
  return {
    metadata: new Map([["general.name", gguf.str(name)], ...hparams("qwen3", s), ...tokenizer(vocab, chatTemplate)]),
    tensors: [
      f32("token_embd.weight", [s.nEmbd, nVocab], w),
      f32("output_norm.weight", [s.nEmbd], w),
      f32("output.weight", [s.nEmbd, nVocab], w),
      ...Array.from({ length: s.nLayer }, (_, i) => layerTensors(s, i, w)).flat(),
    ],
  };
}

export function dflashModel(name: string, s: DraftShape, vocab: Vocab, w: Weights): GGUFModel {
  return {
    metadata: new Map([
      ["general.name", gguf.str(name)],
      ...hparams("dflash", s),
      ["dflash.block_size", gguf.u32(s.blockSize)],
      ["dflash.target_layers", gguf.arr(ValueType.INT32, s.targetLayers)],
      ...(s.slidingWindow === undefined
        ? []
        : ([
            ["dflash.attention.sliding_window", gguf.u32(s.slidingWindow)],
            ["dflash.attention.sliding_window_pattern", gguf.arr(ValueType.BOOL, Array(s.nLayer).fill(true))],
          ] as [string, GGUFValue][])),
      ...tokenizer(vocab, undefined),
      ["tokenizer.ggml.mask_token_id", gguf.u32(vocab.special["<|mask|>"])],
    ]),
    tensors: [
      f32("fc.weight", [s.targetLayers.length * s.nEmbd, s.nEmbd], w),
      f32("enc.output_norm.weight", [s.nEmbd], w),
      f32("output_norm.weight", [s.nEmbd], w),
      ...Array.from({ length: s.nLayer }, (_, i) => layerTensors(s, i, w)).flat(),
    ],
  };
}
