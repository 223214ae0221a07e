// Small GGUF files for tests, written with our writer.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GGML_TYPE, ValueType, type GGUFValue } from "../../server/src/gguf/types";
import { gguf, writeGGUF, type TensorData } from "../../server/src/gguf/writer";

export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `cts-${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function sampleMetadata(): Map<string, GGUFValue> {
  return new Map<string, GGUFValue>([
    ["general.architecture", gguf.str("test")],
    ["general.name", gguf.str("ünïcode ✓ name")],
    ["test.count", gguf.u32(7)],
    ["test.big", gguf.u64(2n ** 40n + 3n)],
    ["test.ratio", gguf.f32(0.5)],
    ["test.flag", gguf.bool(true)],
    ["test.ids", gguf.arr(ValueType.INT32, [1, -2, 3])],
    ["tokenizer.ggml.tokens", gguf.arr(ValueType.STRING, ["<s>", "</s>", "a", "b"])],
    ["tokenizer.ggml.bos_token_id", gguf.u32(0)],
    ["tokenizer.ggml.eos_token_id", gguf.u32(1)],
    ["tokenizer.chat_template", gguf.str("{% for m in messages %}{{ m.content }}{% endfor %}")],
    ["tokenizer.chat_template.tool_use", gguf.str("{{ tools | tojson }}")],
  ]);
}

/** Tensors of odd sizes, so that alignment padding is exercised. */
export function sampleTensors(): TensorData[] {
  const f32 = new Float32Array(3 * 5).map((_, i) => i * 0.25);
  const i32 = new Int32Array(7).map((_, i) => i - 3);
  const f16 = new Uint8Array(2 * 9).map((_, i) => i);
  return [
    { name: "a.weight", dims: [3, 5], type: GGML_TYPE.F32, data: new Uint8Array(f32.buffer) },
    { name: "b.ids", dims: [7], type: GGML_TYPE.I32, data: new Uint8Array(i32.buffer) },
    { name: "c.half", dims: [9], type: GGML_TYPE.F16, data: f16 },
  ];
}

export function writeSample(file: string, metadata = sampleMetadata()): void {
  writeGGUF(file, metadata, sampleTensors());
}
