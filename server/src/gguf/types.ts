// The GGUF container format (version 2 and 3, little-endian) as llama.cpp's gguf.cpp and gguf-py define it.
// https://github.com/ggml-org/ggml/blob/master/docs/gguf.md

export const GGUF_MAGIC = "GGUF";
export const GGUF_DEFAULT_ALIGNMENT = 32;
/** ggml's GGML_MAX_DIMS: a tensor info with more dimensions is corrupt. */
export const GGUF_MAX_DIMS = 4;

export enum ValueType {
  UINT8 = 0,
  INT8 = 1,
  UINT16 = 2,
  INT16 = 3,
  UINT32 = 4,
  INT32 = 5,
  FLOAT32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
  UINT64 = 10,
  INT64 = 11,
  FLOAT64 = 12,
}

/** Byte size of each fixed-size scalar type (strings and arrays have none). */
export const SCALAR_SIZE: Partial<Record<ValueType, number>> = {
  [ValueType.UINT8]: 1,
  [ValueType.INT8]: 1,
  [ValueType.UINT16]: 2,
  [ValueType.INT16]: 2,
  [ValueType.UINT32]: 4,
  [ValueType.INT32]: 4,
  [ValueType.FLOAT32]: 4,
  [ValueType.BOOL]: 1,
  [ValueType.UINT64]: 8,
  [ValueType.INT64]: 8,
  [ValueType.FLOAT64]: 8,
};

export type Scalar = number | bigint | boolean | string;

/** One metadata value with its GGUF type; arrays carry their element type (nested arrays are allowed by the format). */
export type GGUFValue =
  | { type: Exclude<ValueType, ValueType.ARRAY | ValueType.UINT64 | ValueType.INT64 | ValueType.STRING | ValueType.BOOL>; value: number }
  | { type: ValueType.UINT64 | ValueType.INT64; value: bigint }
  | { type: ValueType.STRING; value: string }
  | { type: ValueType.BOOL; value: boolean }
  | { type: ValueType.ARRAY; itemType: ValueType; value: GGUFArray };

export type GGUFArray = Scalar[] | GGUFValue[];

export interface TensorInfo {
  name: string;
  /** ggml order: dims[0] is the contiguous (row) dimension. */
  dims: number[];
  type: number;
  /** Relative to the start of the data section; a multiple of the alignment. */
  offset: number;
}

export interface GGUFHeader {
  version: number;
  metadata: Map<string, GGUFValue>;
  tensors: TensorInfo[];
  alignment: number;
  /** Absolute file offset where tensor data starts (the header plus padding). */
  dataOffset: number;
  fileSize: number;
}

/** ggml tensor types: elements per block and bytes per block (gguf-py's GGML_QUANT_SIZES). */
export const GGML_TYPES: Record<number, { name: string; block: number; bytes: number }> = {
  0: { name: "F32", block: 1, bytes: 4 },
  1: { name: "F16", block: 1, bytes: 2 },
  2: { name: "Q4_0", block: 32, bytes: 18 },
  3: { name: "Q4_1", block: 32, bytes: 20 },
  6: { name: "Q5_0", block: 32, bytes: 22 },
  7: { name: "Q5_1", block: 32, bytes: 24 },
  8: { name: "Q8_0", block: 32, bytes: 34 },
  9: { name: "Q8_1", block: 32, bytes: 36 },
  10: { name: "Q2_K", block: 256, bytes: 84 },
  11: { name: "Q3_K", block: 256, bytes: 110 },
  12: { name: "Q4_K", block: 256, bytes: 144 },
  13: { name: "Q5_K", block: 256, bytes: 176 },
  14: { name: "Q6_K", block: 256, bytes: 210 },
  15: { name: "Q8_K", block: 256, bytes: 292 },
  16: { name: "IQ2_XXS", block: 256, bytes: 66 },
  17: { name: "IQ2_XS", block: 256, bytes: 74 },
  18: { name: "IQ3_XXS", block: 256, bytes: 98 },
  19: { name: "IQ1_S", block: 256, bytes: 50 },
  20: { name: "IQ4_NL", block: 32, bytes: 18 },
  21: { name: "IQ3_S", block: 256, bytes: 110 },
  22: { name: "IQ2_S", block: 256, bytes: 82 },
  23: { name: "IQ4_XS", block: 256, bytes: 136 },
  24: { name: "I8", block: 1, bytes: 1 },
  25: { name: "I16", block: 1, bytes: 2 },
  26: { name: "I32", block: 1, bytes: 4 },
  27: { name: "I64", block: 1, bytes: 8 },
  28: { name: "F64", block: 1, bytes: 8 },
  29: { name: "IQ1_M", block: 256, bytes: 56 },
  30: { name: "BF16", block: 1, bytes: 2 },
  34: { name: "TQ1_0", block: 256, bytes: 54 },
  35: { name: "TQ2_0", block: 256, bytes: 66 },
  39: { name: "MXFP4", block: 32, bytes: 17 },
  40: { name: "NVFP4", block: 64, bytes: 36 },
  41: { name: "Q1_0", block: 128, bytes: 18 },
  42: { name: "Q2_0", block: 64, bytes: 18 },
};

export const GGML_TYPE = { F32: 0, F16: 1, I32: 26 } as const;

/** Bytes a tensor's data takes, or an error text when its shape does not fit its type's blocks. */
export function tensorByteSize(t: Pick<TensorInfo, "dims" | "type">): number | string {
  const ty = GGML_TYPES[t.type];
  if (!ty) return `unknown tensor type ${t.type}`;
  if (t.dims[0] % ty.block !== 0) return `row of ${t.dims[0]} elements is not a multiple of ${ty.name}'s block of ${ty.block}`;
  let rows = 1;
  for (const d of t.dims.slice(1)) rows *= d;
  return (t.dims[0] / ty.block) * ty.bytes * rows;
}

export function alignUp(n: number, alignment: number): number {
  return Math.ceil(n / alignment) * alignment;
}

/** Thrown for a file that is not a well-formed GGUF; `offset` is where reading failed. */
export class GGUFError extends Error {
  constructor(
    readonly file: string,
    readonly offset: number,
    readonly detail: string,
  ) {
    super(`${file}: ${detail} (at byte offset ${offset})`);
    this.name = "GGUFError";
  }
}
