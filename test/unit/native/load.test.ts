// Loading: model information, progress, and clear errors for missing, corrupt and mismatched files.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { copyWithMetadata } from "../../../server/src/gguf/copy";
import { gguf } from "../../../server/src/gguf/writer";
import { Engine } from "../../../native/engine/engine";
import { EngineError, ModelFileError } from "../../../native/engine/errors";
import { buildVocab } from "../../../native/testModels/vocab";
import { constructedPair, loadEngine, modelDir, randomPair } from "../../helpers/native";

async function loadError(options: Parameters<typeof Engine.load>[0]): Promise<EngineError> {
  const e = await Engine.load({ threads: 1, warmup: false, ...options }).then(
    (engine) => (engine.close(), assert.fail("loaded")),
    (x) => x,
  );
  assert.ok(e instanceof EngineError, String(e?.stack ?? e));
  return e;
}

describe("loading", () => {
  it("describes the target, the draft and the backend, and reports progress", async () => {
    const progress: [string, number][] = [];
    const pair = randomPair(1);
    const engine = await loadEngine({ ...pair, contextSize: 512, onProgress: (stage, p) => progress.push([stage, p]) });
    const info = engine.info;
    assert.equal(info.arch, "qwen3");
    assert.equal(info.name, "random test target");
    assert.equal(info.contextSize, 512);
    assert.equal(info.vocabSize, buildVocab().tokens.length);
    assert.equal(info.embeddingSize, 64);
    assert.equal(info.layers, 4);
    assert.equal(info.eosText, "<|im_end|>");
    assert.equal(info.bosText, "<|endoftext|>");
    assert.equal(info.addBos, false);
    assert.match(info.chatTemplate, /<\|im_start\|>/);
    assert.deepEqual(info.draft, { name: "random test draft", layers: 1, blockSize: 16, draftMax: 15, draftAdaptive: true, window: 0 });
    assert.equal(info.backend.kind, "cpu");
    assert.ok(info.backend.devices.some((d) => d.type === "cpu"));
    for (const stage of ["target", "draft"]) {
      const ps = progress.filter(([s]) => s === stage).map(([, p]) => p);
      assert.ok(ps.length >= 2 && ps.at(-1) === 1, `${stage} progress reaches 1: ${ps}`);
    }
    const plain = await loadEngine({ target: pair.target, draftMax: 4 });
    assert.equal(plain.info.draft, null);
    const limited = await loadEngine({ ...pair, draftMax: 4 });
    assert.equal(limited.info.draft?.draftMax, 4);
  });

  it("tokenizes with and without special tokens, and detokenizes", async () => {
    const engine = await loadEngine({ target: randomPair(1).target });
    const special = await engine.tokenize("<|im_start|>user\nhi<|im_end|>");
    assert.equal(special[0], engine.info.vocabSize - 9, "<|im_start|> is one token");
    const literal = await engine.tokenize("<|im_start|>", { parseSpecial: false });
    assert.ok(literal.length > 1, "as text it is several tokens");
    assert.equal(await engine.detokenize(special, { special: true }), "<|im_start|>user\nhi<|im_end|>");
    assert.equal(await engine.detokenize(special), "user\nhi", "control tokens are hidden unless asked for");
    assert.equal(await engine.detokenize(await engine.tokenize("Ünïcødé ✓ text")), "Ünïcødé ✓ text");
  });

  it("takes a quantized K cache and a template override with the model's own bos/eos", async () => {
    const engine = await loadEngine({ ...randomPair(1), cacheTypeK: "q8_0" });
    const r = await engine.generate([1, 2, 3, 4], { maxTokens: 4, temperature: 0, ignoreEos: true });
    assert.equal(r.tokens.length, 4);
    const custom = await engine.chatTemplate("{{ bos_token }}|{% for m in messages %}{{ m.content }}{% endfor %}|{{ eos_token }}");
    assert.equal((await custom.apply({ messages: [{ role: "user", content: "hi" }] })).prompt, "<|endoftext|>|hi|<|im_end|>");
    assert.match(custom.source, /^\{\{ bos_token \}\}/);
  });

  it("names a missing file", async () => {
    const e = await loadError({ target: join(modelDir, "nope.gguf") });
    assert.equal(e.code, "file_not_found");
    assert.match(e.message, /target model not found: .*nope\.gguf/);
    const d = await loadError({ target: randomPair(1).target, draft: join(modelDir, "nope-draft.gguf") });
    assert.match(d.message, /draft model not found/);
  });

  it("gives the offset for corrupt and truncated files", async () => {
    const bytes = readFileSync(randomPair(1).target);
    const truncated = join(modelDir, "truncated.gguf");
    writeFileSync(truncated, bytes.subarray(0, bytes.length - 1000));
    const e = await loadError({ target: truncated });
    assert.ok(e instanceof ModelFileError);
    assert.equal(e.code, "invalid_model");
    assert.match(e.message, /truncated: tensor '.+' data ends at byte \d+ but the file has \d+ bytes \(at byte offset \d+\)/);
    const garbage = join(modelDir, "garbage.gguf");
    writeFileSync(garbage, Buffer.concat([bytes.subarray(0, 600), Buffer.alloc(4096, 0xff)]));
    const g = await loadError({ target: randomPair(1).target, draft: garbage });
    assert.ok(g instanceof ModelFileError);
    assert.match(g.message, /garbage\.gguf: .+ \(at byte offset \d+\)/);
  });

  it("refuses a draft whose width, vocabulary or kind does not fit the target", async () => {
    const wide = randomPair(8, { draft: { nEmbd: 32, headDim: 8 } }, "narrow");
    const e1 = await loadError({ target: randomPair(1).target, draft: wide.draft });
    assert.equal(e1.code, "model_mismatch");
    assert.match(e1.message, /draft n_embd 32 != target n_embd 64/);

    const vocab = buildVocab(20);
    const otherVocab = randomPair(9, { draftVocab: vocab }, "othervocab");
    const e2 = await loadError({ target: randomPair(1).target, draft: otherVocab.draft });
    assert.match(e2.message, /tokenizer differs: draft has \d+ tokens, target \d+/);

    const e3 = await loadError({ target: randomPair(1).target, draft: randomPair(1).target });
    assert.match(e3.message, /its architecture is 'qwen3', a DFlash draft has 'dflash'/);

    const e4 = await loadError({ target: randomPair(1).draft });
    assert.equal(e4.code, "invalid_model");
    assert.match(e4.message, /is a DFlash draft; load it as the draft of a target model/);

    const farLayers = join(modelDir, "far-layers.gguf");
    await copyWithMetadata(randomPair(1).draft, farLayers, (m) => m.set("dflash.target_layers", gguf.arr(5, [1, 9])));
    const e5 = await loadError({ target: randomPair(1).target, draft: farLayers });
    assert.match(e5.message, /dflash\.target_layers names layer 9 but the target has 4 layers/);
  });

  it("rejects metadata llama.cpp would abort on, and bad options", async () => {
    const zeroLayers = join(modelDir, "zero-layers.gguf");
    await copyWithMetadata(randomPair(1).target, zeroLayers, (m) => m.set("qwen3.block_count", gguf.u32(0)));
    const e = await loadError({ target: zeroLayers });
    assert.match(e.message, /qwen3\.block_count is 0/);
    assert.match((await loadError({ target: randomPair(1).target, cacheTypeK: "q9" })).message, /unsupported KV cache type 'q9'/);
    await assert.rejects(Engine.load({ target: randomPair(1).target, contextSize: 2 }), /contextSize/);
    const c = constructedPair();
    assert.match(
      (await loadError({ target: c.target, flashAttention: "sometimes" as "on" })).message,
      /flash attention must be auto, on or off/,
    );
  });
});
