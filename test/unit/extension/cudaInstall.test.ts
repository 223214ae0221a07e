// Install CUDA Build runs the real `chat-template install-cuda` (dist/cli.js) with an npm on PATH that
// stands in for the registry: progress from its lines, its verdict as the result, cancel ends npm too.
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { installCuda, type CliSpec } from "../../../client/src/endpoint/cudaInstall";
import { CLI } from "../../helpers/endpoint";

const dir = mkdtempSync(join(tmpdir(), "cts-cuda-install-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI with `script` as the npm on its PATH. */
function cliWithNpm(name: string, script: string): CliSpec {
  const bin = join(dir, name, "bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "npm"), `#!/bin/sh\n${script}\n`);
  chmodSync(join(bin, "npm"), 0o755);
  return { command: process.execPath, args: [CLI], env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } };
}

describe("Install CUDA Build", { timeout: 60_000 }, () => {
  test("reports the megabytes npm has unpacked, then the CLI's verdict on this machine (no GPU here)", async () => {
    // npm's arguments: install --prefix PREFIX …
    const npm = cliWithNpm("slow", 'd="$3/node_modules/@node-llama-cpp/linux-x64-cuda/bins/linux-x64-cuda"; mkdir -p "$d"; head -c 3000000 /dev/zero > "$d/libllama-common.so"; sleep 1.6');
    const seen: number[] = [];
    const storage = join(dir, "slow", "storage");
    const r = await installCuda(npm, storage, (mb) => seen.push(mb));
    assert.equal(r.ok, false);
    assert.match(r.message, /^the CUDA build is installed but does not load on this machine: .*no NVIDIA driver/);
    assert.ok(seen.includes(3), `progress seen: ${seen}`);
    assert.ok(existsSync(join(storage, "cuda", "node-llama-cpp-3.22.1", "package.json")), "installed into the given storage folder");
    assert.equal(existsSync(join(storage, "cuda", "install.json")), false, "nothing recorded");
  });

  test("npm's failure, in npm's words", async () => {
    const r = await installCuda(cliWithNpm("failing", "echo 'npm ERR! 404 Not Found' >&2; exit 1"), join(dir, "failing", "storage"), () => {});
    assert.deepEqual(r, { ok: false, message: "npm install failed (exit 1):\nnpm ERR! 404 Not Found" });
  });

  test("cancelling ends the install and the npm it runs", async () => {
    const marker = join(dir, "cancel", "npm-finished");
    const abort = new AbortController();
    const started = Date.now();
    const pending = installCuda(cliWithNpm("cancel", `sleep 3; touch ${marker}`), join(dir, "cancel", "storage"), () => {}, abort.signal);
    setTimeout(() => abort.abort(), 500);
    assert.deepEqual(await pending, { ok: false, message: "the install was cancelled" });
    assert.ok(Date.now() - started < 2500, "it did not wait for npm");
    await new Promise((r) => setTimeout(r, 3500));
    assert.equal(existsSync(marker), false, "npm was ended too");
  });

  test("a command that cannot be run", async () => {
    const r = await installCuda({ command: join(dir, "no-such-node"), args: [] }, join(dir, "none"), () => {});
    assert.equal(r.ok, false);
    assert.match(r.message, /^cannot run .*no-such-node: .*ENOENT/);
  });
});
