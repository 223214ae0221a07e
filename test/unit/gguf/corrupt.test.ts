import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readGGUFHeader } from "../../../server/src/gguf/reader";
import { GGUFError } from "../../../server/src/gguf/types";
import { tempDir, writeSample } from "../../helpers/gguf";

const tmp = tempDir("gguf-bad");
after(tmp.cleanup);
const good = join(tmp.dir, "good.gguf");
writeSample(good);
const bytes = readFileSync(good);
const { dataOffset } = readGGUFHeader(good);

function variant(name: string, edit: (b: Buffer) => Buffer): string {
  const file = join(tmp.dir, name);
  writeFileSync(file, edit(Buffer.from(bytes)));
  return file;
}

function rejects(file: string, message: RegExp, offset?: number): GGUFError {
  try {
    readGGUFHeader(file);
  } catch (e) {
    assert.ok(e instanceof GGUFError, `a GGUFError, got ${(e as Error).stack}`);
    assert.match(e.message, message);
    assert.ok(e.message.includes(file), "the message names the file");
    assert.match(e.message, /at byte offset \d+/);
    if (offset !== undefined) assert.equal(e.offset, offset);
    return e;
  }
  assert.fail(`${file} was accepted`);
}

/** Byte position of a key's text in the file. */
const at = (text: string) => bytes.indexOf(Buffer.from(text, "utf8"));

describe("GGUF reader on corrupt and truncated files", () => {
  it("names the field and offset for a file cut anywhere in the header", () => {
    for (let len = 0; len < dataOffset; len++) {
      const file = variant("cut.gguf", (b) => b.subarray(0, len));
      const e = rejects(file, /truncated|ended early|cannot fit|exceeds/);
      // a complete header without data points at where the missing tensor data should be
      assert.ok(e.offset <= len || e.detail.startsWith("truncated: tensor"), `offset ${e.offset} within the ${len} bytes`);
    }
  });

  it("reports tensor data cut short, naming the tensor", () => {
    rejects(
      variant("short.gguf", (b) => b.subarray(0, b.length - 20)),
      /truncated: tensor 'c\.half' data ends at byte \d+ but the file has \d+ bytes/,
    );
  });

  it("rejects a wrong magic number, old and big-endian versions", () => {
    rejects(
      variant("magic.gguf", (b) => (b.write("GGUX", 0, "latin1"), b)),
      /not a GGUF file: starts with "GGUX"/,
      0,
    );
    rejects(
      variant("v1.gguf", (b) => (b.writeUInt32LE(1, 4), b)),
      /version 1 is obsolete/,
      4,
    );
    rejects(
      variant("be.gguf", (b) => (b.writeUInt32BE(3, 4), b)),
      /unsupported GGUF version 50331648 \(a big-endian file/,
      4,
    );
  });

  it("rejects counts and lengths larger than the file before allocating", () => {
    rejects(
      variant("kv.gguf", (b) => (b.writeBigUInt64LE(1n << 40n, 16), b)),
      /metadata entries and 3 tensors cannot fit/,
      8,
    );
    const keyLen = at("general.architecture") - 8;
    rejects(
      variant("strlen.gguf", (b) => (b.writeBigUInt64LE(1n << 50n, keyLen), b)),
      /the key of metadata entry #0: string length \d+ exceeds/,
      keyLen,
    );
    const tokens = at("tokenizer.ggml.tokens") + "tokenizer.ggml.tokens".length;
    rejects(
      variant("arr.gguf", (b) => (b.writeBigUInt64LE(1n << 45n, tokens + 8), b)),
      /the value of 'tokenizer\.ggml\.tokens': array of \d+ elements cannot fit/,
    );
  });

  it("rejects unknown types, bad booleans, duplicate keys and bad tensor infos", () => {
    const countType = at("test.count") + "test.count".length;
    rejects(
      variant("type.gguf", (b) => (b.writeUInt32LE(99, countType), b)),
      /metadata 'test\.count' has unknown value type 99/,
      countType,
    );
    const flag = at("test.flag") + "test.flag".length + 4;
    rejects(
      variant("bool.gguf", (b) => (b.writeUInt8(2, flag), b)),
      /the value of 'test\.flag': boolean byte is 2/,
    );
    rejects(
      variant("dup.gguf", (b) => (b.write("test.count", at("test.ratio"), "utf8"), b)),
      /duplicate metadata key 'test\.count'/,
    );
    const dims = at("b.ids") + "b.ids".length;
    rejects(
      variant("dims.gguf", (b) => (b.writeUInt32LE(5, dims), b)),
      /tensor 'b\.ids' has 5 dimensions/,
      dims,
    );
    const offset = dims + 4 + 8 + 4;
    rejects(
      variant("align.gguf", (b) => (b.writeBigUInt64LE(3n, offset), b)),
      /tensor 'b\.ids' data offset 3 is not a multiple of the alignment 32/,
      offset,
    );
    rejects(
      variant("ttype.gguf", (b) => (b.writeUInt32LE(77, offset - 4), b)),
      /tensor 'b\.ids': unknown tensor type 77/,
    );
  });

  it("reports a missing file as a GGUFError too", () => {
    rejects(join(tmp.dir, "nope.gguf"), /cannot open: ENOENT/, 0);
  });
});
