// The native engine's commands: make-test-models and bench (figures are not asserted, only their shape).
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { chatTemplate } from "../../../server/src/gguf/metadata";
import { readGGUFHeader } from "../../../server/src/gguf/reader";
import { runCli } from "../../helpers/cli";
import { tempDir } from "../../helpers/gguf";
import { randomPair } from "../../helpers/native";

const tmp = tempDir("native-cli");
after(tmp.cleanup);

describe("chat-template make-test-models", () => {
  it("writes the random, constructed, falling and scripted pairs, readable and with the chat template", () => {
    const dir = join(tmp.dir, "models");
    const r = runCli(["make-test-models", dir, "--seed", "5"]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(readdirSync(dir).sort(), [
      "constructed-draft.gguf",
      "constructed-target.gguf",
      "falling-draft.gguf",
      "falling-target.gguf",
      "random-draft.gguf",
      "random-target.gguf",
      "scripted-draft.gguf",
      "scripted-target.gguf",
    ]);
    assert.match(r.stdout, /random-target\.gguf \+ .*random-draft\.gguf: random weights \(seed 5\)/);
    assert.match(r.stdout, /falling-draft\.gguf: .*forgets letter k of the cycle past 1024 \+ 256·k tokens of context .*by 6913/);
    const target = readGGUFHeader(join(dir, "random-target.gguf"));
    assert.match(chatTemplate(target)!, /<\|im_start\|>/);
    assert.equal(readGGUFHeader(join(dir, "constructed-draft.gguf")).metadata.get("general.architecture")?.value, "dflash");
    assert.equal(runCli(["make-test-models"]).status, 2);
    assert.equal(runCli(["make-test-models", dir, "--seed", "x"]).status, 2);
  });
});

describe("chat-template bench", () => {
  it("benchmarks the constructed pair; with --json the last line has the six figures", () => {
    const r = runCli(["bench", "--json", "--tokens", "64", "--runs", "1"]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^backend: cpu \(running on the CPU: .+\)\ntarget: .+constructed test pair/);
    assert.match(
      r.stdout,
      /\nplain : [\d.]+ tok\/s, [\d.]+ ms per step\ndflash: [\d.]+ tok\/s, acceptance [\d.]+%, [\d.]+ tokens per step, verify [\d.]+ ms \+ draft [\d.]+ ms per step\nDFlash: [\d.]+× plain decoding's speed \([\d.]+× predicted from the measured step costs\)\nlossless: yes/,
    );
    const last = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    assert.deepEqual(Object.keys(last), ["lossless", "acceptance", "plain_tps", "dflash_tps", "speedup", "ideal_speedup"]);
    assert.equal(last.lossless, true);
    assert.ok(last.acceptance > 0.9, "the prompt holds the cycle: nearly every draft is accepted");
    for (const k of ["plain_tps", "dflash_tps", "speedup", "ideal_speedup"]) assert.ok(last[k] > 0, k);
  });

  it("sweeps context lengths: plain, fixed-block and adaptive DFlash tok/s and acceptance per prompt length", () => {
    const r = runCli(["bench", "--json", "--tokens", "24", "--runs", "1", "--context-sweep", "64,300"]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      /\ncontext sweep \(tok\/s, median of 1 runs of 24 tokens; [^\n]+\n +context +plain +fixed +adaptive +acceptance +ratio\n +64( +[\d.]+){3} +100\.0% +[\d.]+x\n +300( +[\d.]+){3} +100\.0% +[\d.]+x\n/,
    );
    const last = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    assert.deepEqual(Object.keys(last), ["lossless", "acceptance", "plain_tps", "dflash_tps", "speedup", "ideal_speedup", "sweep"]);
    assert.deepEqual(
      last.sweep.map((p: { context: number }) => p.context),
      [64, 300],
    );
    for (const p of last.sweep) {
      assert.deepEqual(Object.keys(p), ["context", "plain_tps", "fixed_tps", "adaptive_tps", "acceptance"]);
      assert.equal(p.acceptance, 1, "the constructed pair's cycle prompt: every draft accepted");
      for (const k of ["plain_tps", "fixed_tps", "adaptive_tps"]) assert.ok(p[k] > 0, k);
    }
    const bad = runCli(["bench", "--context-sweep", "512,x"]);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--context-sweep takes comma-separated prompt lengths in tokens, like 512,2048,8192 \(got '512,x'\)/);
  });

  it("--compare-llama measures the engine, with its draft, a real endpoint and llama.cpp at each prompt length; --json prints the points last", () => {
    // the demo pair, generated into this file's folder
    const r = runCli(["bench", "--compare-llama", "--json", "--prompts", "64,200", "--tokens", "4", "--threads", "1"], {
      env: { CTS_STORAGE_DIR: join(tmp.dir, "storage") },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /bench: on the demo models/);
    assert.match(
      r.stdout,
      /^engine vs node-llama-cpp 3\.22\.1's LlamaContext \(its best of fa off, batch 512; fa off, batch 2048; fa on, batch 512; fa on, batch 2048\), 1 threads/,
    );
    const lines = r.stdout.trimEnd().split("\n");
    const { points } = JSON.parse(lines.at(-1)!);
    assert.deepEqual(
      points.map((p: { prompt: number }) => p.prompt),
      [64, 200],
    );
    for (const p of points) {
      for (const key of [
        "ours_prefill",
        "llama_prefill",
        "ours_decode",
        "llama_decode",
        "endpoint_prefill",
        "endpoint_ttft_ms",
        "llama_ttft_ms",
        "draft_prefill",
        "draft_decode",
      ])
        assert.ok(Number.isFinite(p[key]) && p[key] > 0, `${key} of ${JSON.stringify(p)}`);
      assert.match(p.llama_best_prefill, /^fa (on|off), batch (512|2048)$/);
    }
    assert.equal(lines.filter((l) => /^ +(64|200) /.test(l)).length, 2, r.stdout);
  });

  it("--compare-llama's usage errors exit 2", () => {
    assert.equal(runCli(["bench", "--prompts", "64"]).status, 2);
    assert.equal(runCli(["bench", "--compare-llama", "--prompts", "8"]).status, 2);
    assert.equal(runCli(["bench", "--compare-llama", "--runs", "2"]).status, 2);
    assert.equal(runCli(["bench", "--compare-llama", "--draft", "x.gguf"]).status, 2);
  });

  it("benchmarks given models, and reports bad ones and bad usage", () => {
    const pair = randomPair(2);
    const r = runCli(["bench", "--target", pair.target, "--draft", pair.draft, "--tokens", "16", "--runs", "1", "--threads", "1"]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /lossless: yes/);
    const bad = runCli(["bench", "--target", join(tmp.dir, "none.gguf"), "--draft", pair.draft]);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /^chat-template bench: target model not found: /);
    assert.equal(runCli(["bench", "--target", pair.target]).status, 2);
    assert.equal(runCli(["bench", "--tokens", "0"]).status, 2);
  });
});
