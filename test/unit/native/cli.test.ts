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
  it("writes the random and constructed pairs, readable and with the chat template", () => {
    const dir = join(tmp.dir, "models");
    const r = runCli(["make-test-models", dir, "--seed", "5"]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(readdirSync(dir).sort(), ["constructed-draft.gguf", "constructed-target.gguf", "random-draft.gguf", "random-target.gguf"]);
    assert.match(r.stdout, /random-target\.gguf \+ .*random-draft\.gguf: random weights \(seed 5\)/);
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
    assert.match(r.stdout, /\nplain : [\d.]+ tok\/s, [\d.]+ ms per step\ndflash: [\d.]+ tok\/s, acceptance [\d.]+%, [\d.]+ tokens per step, verify [\d.]+ ms \+ draft [\d.]+ ms per step\nspeedup [\d.]+x of ideal [\d.]+x \(\d+%\), lossless: yes/);
    const last = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    assert.deepEqual(Object.keys(last), ["lossless", "acceptance", "plain_tps", "dflash_tps", "speedup", "ideal_speedup"]);
    assert.equal(last.lossless, true);
    assert.ok(last.acceptance > 0.9, "the prompt holds the cycle: nearly every draft is accepted");
    for (const k of ["plain_tps", "dflash_tps", "speedup", "ideal_speedup"]) assert.ok(last[k] > 0, k);
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
