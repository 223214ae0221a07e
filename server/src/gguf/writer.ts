// Writes GGUF files: the header (metadata + tensor infos) and aligned tensor data.
import { closeSync, openSync, writeSync } from "node:fs";
import {
  GGUF_DEFAULT_ALIGNMENT,
  SCALAR_SIZE,
  ValueType,
  alignUp,
  tensorByteSize,
  type GGUFValue,
  type Scalar,
  type TensorInfo,
} from "./types";

/** Typed value constructors, so metadata says exactly which GGUF type each value is written as. */
export const gguf = {
  u32: (value: number): GGUFValue => ({ type: ValueType.UINT32, value }),
  u64: (value: number | bigint): GGUFValue => ({ type: ValueType.UINT64, value: BigInt(value) }),
  f32: (value: number): GGUFValue => ({ type: ValueType.FLOAT32, value }),
  bool: (value: boolean): GGUFValue => ({ type: ValueType.BOOL, value }),
  str: (value: string): GGUFValue => ({ type: ValueType.STRING, value }),
  arr: (itemType: Exclude<ValueType, ValueType.ARRAY>, value: Scalar[]): GGUFValue =>
    ({ type: ValueType.ARRAY, itemType, value }) as GGUFValue,
};

/** Accumulates little-endian fields into chunks. */
class Sink {
  private chunks: Buffer[] = [];
  length = 0;

  push(b: Buffer): void {
    this.chunks.push(b);
    this.length += b.length;
  }

  fixed(size: number, write: (b: Buffer) => void): void {
    const b = Buffer.alloc(size);
    write(b);
    this.push(b);
  }

  u32(v: number): void {
    this.fixed(4, (b) => b.writeUInt32LE(v));
  }

  u64(v: number | bigint): void {
    this.fixed(8, (b) => b.writeBigUInt64LE(BigInt(v)));
  }

  string(s: string): void {
    const bytes = Buffer.from(s, "utf8");
    this.u64(bytes.length);
    this.push(bytes);
  }

  scalar(type: ValueType, v: Scalar, key: string): void {
    if (type === ValueType.STRING) {
      if (typeof v !== "string") throw new TypeError(`metadata '${key}': expected a string, got ${typeof v}`);
      return this.string(v);
    }
    const size = SCALAR_SIZE[type];
    if (size === undefined) throw new TypeError(`metadata '${key}': value type ${type} is not a scalar`);
    this.fixed(size, (b) => {
      switch (type) {
        case ValueType.UINT8:
          return void b.writeUInt8(Number(v));
        case ValueType.INT8:
          return void b.writeInt8(Number(v));
        case ValueType.UINT16:
          return void b.writeUInt16LE(Number(v));
        case ValueType.INT16:
          return void b.writeInt16LE(Number(v));
        case ValueType.UINT32:
          return void b.writeUInt32LE(Number(v));
        case ValueType.INT32:
          return void b.writeInt32LE(Number(v));
        case ValueType.FLOAT32:
          return void b.writeFloatLE(Number(v));
        case ValueType.FLOAT64:
          return void b.writeDoubleLE(Number(v));
        case ValueType.UINT64:
          return void b.writeBigUInt64LE(BigInt(v));
        case ValueType.INT64:
          return void b.writeBigInt64LE(BigInt(v));
        case ValueType.BOOL:
          return void b.writeUInt8(v ? 1 : 0);
      }
    });
  }

  value(v: GGUFValue, key: string): void {
    if (v.type !== ValueType.ARRAY) return this.scalar(v.type, v.value, key);
    this.u32(v.itemType);
    this.u64(v.value.length);
    for (const item of v.value) {
      if (v.itemType === ValueType.ARRAY) {
        // an element of an array of arrays is itself (element type, count, elements), with no type tag
        this.value(item as GGUFValue, key);
      } else {
        this.scalar(v.itemType, item as Scalar, key);
      }
    }
  }

  concat(): Buffer {
    return Buffer.concat(this.chunks, this.length);
  }
}

/** The alignment a metadata map asks for (general.alignment), as the reader resolves it. */
export function alignmentOf(metadata: ReadonlyMap<string, GGUFValue>): number {
  const al = metadata.get("general.alignment");
  return al && al.type === ValueType.UINT32 ? al.value : GGUF_DEFAULT_ALIGNMENT;
}

/** Encodes the header and pads it to the alignment, so tensor data may follow directly. */
export function encodeHeader(metadata: ReadonlyMap<string, GGUFValue>, tensors: readonly TensorInfo[], version = 3): Buffer {
  const s = new Sink();
  s.push(Buffer.from("GGUF", "latin1"));
  s.u32(version);
  s.u64(tensors.length);
  s.u64(metadata.size);
  for (const [key, v] of metadata) {
    s.string(key);
    s.u32(v.type);
    s.value(v, key);
  }
  for (const t of tensors) {
    s.string(t.name);
    s.u32(t.dims.length);
    for (const d of t.dims) s.u64(d);
    s.u32(t.type);
    s.u64(t.offset);
  }
  const pad = alignUp(s.length, alignmentOf(metadata)) - s.length;
  s.push(Buffer.alloc(pad));
  return s.concat();
}

export interface TensorData {
  name: string;
  dims: number[];
  type: number;
  data: Uint8Array;
}

/** Assigns aligned data offsets in order; checks each buffer has the size its shape and type imply. */
export function layoutTensors(tensors: readonly TensorData[], alignment: number): TensorInfo[] {
  let offset = 0;
  return tensors.map((t) => {
    const size = tensorByteSize(t);
    if (typeof size === "string") throw new Error(`tensor '${t.name}': ${size}`);
    if (size !== t.data.byteLength) throw new Error(`tensor '${t.name}': ${t.data.byteLength} bytes given, shape needs ${size}`);
    const info = { name: t.name, dims: t.dims, type: t.type, offset };
    offset = alignUp(offset + size, alignment);
    return info;
  });
}

/** Writes a complete GGUF file. */
export function writeGGUF(file: string, metadata: ReadonlyMap<string, GGUFValue>, tensors: readonly TensorData[]): void {
  const alignment = alignmentOf(metadata);
  const infos = layoutTensors(tensors, alignment);
  const fd = openSync(file, "w");
  try {
    writeSync(fd, encodeHeader(metadata, infos));
    let written = 0;
    tensors.forEach((t, i) => {
      if (infos[i].offset > written) writeSync(fd, Buffer.alloc(infos[i].offset - written));
      writeSync(fd, t.data);
      written = infos[i].offset + t.data.byteLength;
    });
    // gguf-py pads the last tensor too; some readers size the data section as a multiple of the alignment
    const end = alignUp(written, alignment);
    if (end > written) writeSync(fd, Buffer.alloc(end - written));
  } finally {
    closeSync(fd);
  }
}
