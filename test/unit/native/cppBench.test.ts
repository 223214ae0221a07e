// The C++ bench and its model generator, which the GPU check runs where there is no Node: tried here on
// the tiny shape so that the GPU run does not discover a broken generator.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readGGUFHeader } from "../../../server/src/gguf/reader";
import { nativeBinDir } from "../../../native/engine/paths";
import { tempDir } from "../../helpers/gguf";

const tmp = tempDir("cpp-bench");
after(tmp.cleanup);
const bench = (...args: string[]) => spawnSync(join(nativeBinDir(), "dflash-bench"), args, { encoding: "utf8" });

describe("dflash-bench", () => {
  // q8_0 for the constructed pair, whose margins are wide; f32 for the random one, where a quantized
  // verification batch (other kernels than one token) can flip a near-tie
  for (const [kind, type] of [
    ["constructed", "q8_0"],
    ["random", "f32"],
  ]) {
    it(`writes a ${kind} ${type} pair and benchmarks it losslessly`, () => {
      const made = bench("make-models", tmp.dir, "--shape", "tiny", "--kind", kind, "--type", type);
      assert.equal(made.status, 0, made.stderr);
      const [target, draft] = made.stdout.trim().split("\n");
      const t = readGGUFHeader(target);
      assert.equal(t.metadata.get("general.architecture")?.value, "qwen3");
      assert.equal(readGGUFHeader(draft).metadata.get("dflash.block_size")?.value, 16);
      const r = bench("run", "--target", target, "--draft", draft, "--tokens", "64", "--threads", "1", "--flash-attn", "off", "--json");
      assert.equal(r.status, 0, r.stdout + r.stderr);
      const last = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
      assert.equal(last.lossless, true);
      if (kind === "constructed") assert.ok(last.acceptance > 0.9, `acceptance ${last.acceptance} (q8_0 weights keep the construction)`);
    });
  }

  it("sweeps context lengths like chat-template bench --context-sweep", () => {
    const made = bench("make-models", tmp.dir, "--shape", "tiny", "--kind", "constructed", "--type", "f32");
    const [target, draft] = made.stdout.trim().split("\n");
    const r = bench(
      "run",
      "--target",
      target,
      "--draft",
      draft,
      "--tokens",
      "24",
      "--threads",
      "1",
      "--flash-attn",
      "off",
      "--context-sweep",
      "64,200",
      "--json",
    );
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /\ncontext sweep \(tok\/s; acceptance of the fixed block\):\n +context +plain +fixed +adaptive +acceptance\n +64( +[\d.]+){3} +100\.0%\n +200( +[\d.]+){3} +100\.0%\n/,
    );
    const sweep = JSON.parse(r.stdout.trim().split("\n").at(-1)!).sweep;
    assert.deepEqual(
      sweep.map((p: { context: number; acceptance: number }) => [p.context, p.acceptance]),
      [
        [64, 1],
        [200, 1],
      ],
    );
    assert.deepEqual(Object.keys(sweep[0]), ["context", "plain_tps", "fixed_tps", "adaptive_tps", "acceptance"]);
  });

  it("writes the falling pair, whose acceptance falls with the sweep's context as in TypeScript", () => {
    const made = bench("make-models", tmp.dir, "--shape", "tiny", "--kind", "falling", "--type", "f32");
    assert.equal(made.status, 0, made.stderr);
    const [target, draft] = made.stdout.trim().split("\n");
    const r = bench(
      ...["run", "--target", target, "--draft", draft, "--tokens", "24", "--threads", "1", "--flash-attn", "off", "--ctx", "8192"],
      ...["--context-sweep", "512,7000", "--json"],
    );
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const sweep = JSON.parse(r.stdout.trim().split("\n").at(-1)!).sweep;
    assert.deepEqual(
      sweep.map((p: { context: number; acceptance: number }) => [p.context, p.acceptance]),
      [
        [512, 1],
        [7000, 0],
      ],
      "every letter known below 1024 tokens, none past 6912",
    );
    const q8 = bench("make-models", tmp.dir, "--shape", "tiny", "--kind", "falling", "--type", "q8_0");
    assert.match(q8.stderr, /the falling pair of shape tiny needs --type f32/);
  });

  it("explains its usage", () => {
    const r = bench("run", "--target", "x");
    assert.equal(r.status, 2);
    assert.match(r.stderr, /usage:\n {2}dflash-bench make-models/);
    assert.match(bench("make-models", tmp.dir, "--shape", "huge").stderr, /unknown shape 'huge'/);
  });
});
