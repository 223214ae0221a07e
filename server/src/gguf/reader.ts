// Reads a GGUF file's header — metadata and tensor infos — in chunks, never touching tensor data, so a
// 20 GB model costs a few megabytes of reading. Every malformed or truncated field is reported with the
// byte offset and the name of the field being read.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import {
  GGUF_DEFAULT_ALIGNMENT,
  GGUF_MAGIC,
  GGUF_MAX_DIMS,
  GGUFError,
  SCALAR_SIZE,
  ValueType,
  alignUp,
  tensorByteSize,
  type GGUFHeader,
  type GGUFValue,
  type Scalar,
  type TensorInfo,
} from "./types";

const CHUNK = 1 << 20;

/** A forward-only cursor over a file descriptor with a growing read-ahead window. */
class Cursor {
  private buf = Buffer.alloc(0);
  private bufStart = 0;
  pos = 0;
  /** What is being read, for error messages. */
  field = "the header";

  constructor(
    private readonly fd: number,
    readonly file: string,
    readonly size: number,
  ) {}

  fail(detail: string, offset = this.pos): never {
    throw new GGUFError(this.file, offset, detail);
  }

  /** Makes n bytes at pos available and returns the buffer offset of pos. */
  private need(n: number): number {
    if (this.pos + n > this.size) {
      this.fail(`truncated while reading ${this.field}: needs ${n} bytes, ${this.size - this.pos} left in the file`);
    }
    const rel = this.pos - this.bufStart;
    if (rel + n <= this.buf.length) return rel;
    const len = Math.min(Math.max(n, CHUNK), this.size - this.pos);
    const next = Buffer.allocUnsafe(len);
    let got = 0;
    while (got < len) {
      const r = readSync(this.fd, next, got, len - got, this.pos + got);
      if (r === 0) this.fail(`file ended early while reading ${this.field}`, this.pos + got);
      got += r;
    }
    this.buf = next;
    this.bufStart = this.pos;
    return 0;
  }

  bytes(n: number): Buffer {
    const at = this.need(n);
    this.pos += n;
    return this.buf.subarray(at, at + n);
  }

  u32(): number {
    const at = this.need(4);
    this.pos += 4;
    return this.buf.readUInt32LE(at);
  }

  /** A u64 that must fit a JS number (counts, lengths, offsets). */
  size64(): number {
    const at = this.need(8);
    const v = this.buf.readBigUInt64LE(at);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) this.fail(`${this.field} is ${v}, larger than any file`);
    this.pos += 8;
    return Number(v);
  }

  /** A length-prefixed UTF-8 string; its length is checked against the file before allocating. */
  string(): string {
    const start = this.pos;
    const len = this.size64();
    if (len > this.size - this.pos) {
      this.fail(
        `truncated or corrupt: ${this.field}: string length ${len} exceeds the ${this.size - this.pos} bytes left in the file`,
        start,
      );
    }
    return this.bytes(len).toString("utf8");
  }

  scalar(type: ValueType): Scalar {
    const size = SCALAR_SIZE[type];
    if (type === ValueType.STRING) return this.string();
    if (size === undefined) this.fail(`${this.field}: unknown value type ${type}`);
    const at = this.need(size);
    this.pos += size;
    const b = this.buf;
    switch (type) {
      case ValueType.UINT8:
        return b.readUInt8(at);
      case ValueType.INT8:
        return b.readInt8(at);
      case ValueType.UINT16:
        return b.readUInt16LE(at);
      case ValueType.INT16:
        return b.readInt16LE(at);
      case ValueType.UINT32:
        return b.readUInt32LE(at);
      case ValueType.INT32:
        return b.readInt32LE(at);
      case ValueType.FLOAT32:
        return b.readFloatLE(at);
      case ValueType.UINT64:
        return b.readBigUInt64LE(at);
      case ValueType.INT64:
        return b.readBigInt64LE(at);
      case ValueType.FLOAT64:
        return b.readDoubleLE(at);
      case ValueType.BOOL: {
        const v = b.readUInt8(at);
        if (v > 1) this.fail(`${this.field}: boolean byte is ${v}, not 0 or 1`, at + this.bufStart);
        return v === 1;
      }
    }
    return this.fail(`${this.field}: unknown value type ${type}`);
  }
}

function readValue(c: Cursor, type: ValueType, depth: number): GGUFValue {
  if (type !== ValueType.ARRAY) return { type, value: c.scalar(type) } as GGUFValue;
  const typeAt = c.pos;
  const itemType = c.u32() as ValueType;
  if (!(itemType in ValueType)) c.fail(`${c.field}: unknown array element type ${itemType}`, typeAt);
  const countAt = c.pos;
  const count = c.size64();
  // every element takes at least one byte (strings at least eight), so a count beyond the file is corrupt
  const minSize = itemType === ValueType.STRING ? 8 : (SCALAR_SIZE[itemType] ?? 12);
  if (count * minSize > c.size - c.pos) {
    c.fail(`truncated or corrupt: ${c.field}: array of ${count} elements cannot fit in the ${c.size - c.pos} bytes left`, countAt);
  }
  if (itemType === ValueType.ARRAY) {
    if (depth > 8) c.fail(`${c.field}: arrays nested more than 8 deep`, typeAt);
    const items: GGUFValue[] = [];
    for (let i = 0; i < count; i++) items.push(readValue(c, ValueType.ARRAY, depth + 1));
    return { type, itemType, value: items };
  }
  const field = c.field;
  const items: Scalar[] = new Array(count);
  for (let i = 0; i < count; i++) {
    c.field = `${field} (element ${i})`;
    items[i] = c.scalar(itemType);
  }
  c.field = field;
  return { type, itemType, value: items } as GGUFValue;
}

/**
 * Parses a GGUF file's header and checks that every tensor's data lies inside the file. Throws GGUFError
 * naming the offset and field of the first problem.
 */
export function readGGUFHeader(file: string): GGUFHeader {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (e) {
    throw new GGUFError(file, 0, `cannot open: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return parse(new Cursor(fd, file, fstatSync(fd).size));
  } finally {
    closeSync(fd);
  }
}

function parse(c: Cursor): GGUFHeader {
  c.field = "the magic number";
  const magic = c.bytes(4).toString("latin1");
  if (magic !== GGUF_MAGIC) c.fail(`not a GGUF file: starts with ${JSON.stringify(magic)} instead of "GGUF"`, 0);
  c.field = "the version";
  const version = c.u32();
  if (version === 1) c.fail("GGUF version 1 is obsolete and not supported", 4);
  if (version !== 2 && version !== 3) {
    const hint = (version & 0xffff) === 0 ? " (a big-endian file? only little-endian GGUF is supported)" : "";
    c.fail(`unsupported GGUF version ${version}${hint}`, 4);
  }
  c.field = "the tensor count";
  const nTensors = c.size64();
  c.field = "the metadata count";
  const nKv = c.size64();
  // each entry takes at least a key length, a type and a value byte; each tensor info at least 28 bytes
  if (nKv * 13 + nTensors * 28 > c.size - c.pos) {
    c.fail(`truncated or corrupt: ${nKv} metadata entries and ${nTensors} tensors cannot fit in a file of ${c.size} bytes`, 8);
  }

  const metadata = new Map<string, GGUFValue>();
  for (let i = 0; i < nKv; i++) {
    c.field = `the key of metadata entry #${i}`;
    const keyAt = c.pos;
    const key = c.string();
    if (metadata.has(key)) c.fail(`duplicate metadata key '${key}'`, keyAt);
    c.field = `the type of '${key}'`;
    const typeAt = c.pos;
    const type = c.u32() as ValueType;
    if (!(type in ValueType)) c.fail(`metadata '${key}' has unknown value type ${type}`, typeAt);
    c.field = `the value of '${key}'`;
    metadata.set(key, readValue(c, type, 0));
  }

  let alignment = GGUF_DEFAULT_ALIGNMENT;
  const al = metadata.get("general.alignment");
  if (al) {
    if (al.type !== ValueType.UINT32 || al.value === 0 || (al.value & (al.value - 1)) !== 0) {
      c.fail(`general.alignment must be a power-of-two uint32, got ${String(al.value)}`);
    }
    alignment = al.value;
  }

  const tensors: TensorInfo[] = [];
  const names = new Set<string>();
  for (let i = 0; i < nTensors; i++) {
    c.field = `the name of tensor #${i}`;
    const nameAt = c.pos;
    const name = c.string();
    if (names.has(name)) c.fail(`duplicate tensor name '${name}'`, nameAt);
    names.add(name);
    c.field = `the dimension count of tensor '${name}'`;
    const dimsAt = c.pos;
    const nDims = c.u32();
    if (nDims < 1 || nDims > GGUF_MAX_DIMS) c.fail(`tensor '${name}' has ${nDims} dimensions (1 to ${GGUF_MAX_DIMS} allowed)`, dimsAt);
    const dims: number[] = [];
    for (let d = 0; d < nDims; d++) {
      c.field = `dimension ${d} of tensor '${name}'`;
      dims.push(c.size64());
    }
    c.field = `the type of tensor '${name}'`;
    const type = c.u32();
    c.field = `the data offset of tensor '${name}'`;
    const offsetAt = c.pos;
    const offset = c.size64();
    if (offset % alignment !== 0)
      c.fail(`tensor '${name}' data offset ${offset} is not a multiple of the alignment ${alignment}`, offsetAt);
    tensors.push({ name, dims, type, offset });
  }

  const dataOffset = alignUp(c.pos, alignment);
  for (const t of tensors) {
    const size = tensorByteSize(t);
    if (typeof size === "string") c.fail(`tensor '${t.name}': ${size}`, c.pos);
    const end = dataOffset + t.offset + size;
    if (end > c.size) {
      c.fail(`truncated: tensor '${t.name}' data ends at byte ${end} but the file has ${c.size} bytes`, dataOffset + t.offset);
    }
  }
  return { version, metadata, tensors, alignment, dataOffset, fileSize: c.size };
}
