// Install CUDA Build runs the real `chat-template install-cuda` (dist/cli.js) against a loopback registry
// (the user's npm configuration names it, as npm's own would): progress from its download lines, its verdict
// as the result, cancel ends it and keeps what was downloaded. The registry serves test tarballs under the
// real names, so the pinned hashes refuse them: that is the verdict these tests see.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { installCuda, type CliSpec } from "../../../client/src/endpoint/cudaInstall";
import { CUDA_TARBALLS } from "../../../native/engine";
import { CLI } from "../../helpers/endpoint";
import { makeTarball, startTarballRegistry, type TarballRegistry } from "../../helpers/tarballRegistry";
import { HANG_GUARD_MS } from "../../helpers/hangGuard";

const dir = mkdtempSync(join(tmpdir(), "cts-cuda-install-"));
let registry: TarballRegistry;
before(async () => {
  const fakes = await Promise.all(
    CUDA_TARBALLS.map((t) => makeTarball(dir, t.name, t.version, { "bins/linux-x64-cuda/libllama-common.so": randomBytes(300_000) })),
  );
  registry = await startTarballRegistry(fakes);
});
after(async () => {
  await registry.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The CLI as the extension runs it, with the loopback registry in npm's configuration. */
const cli = (): CliSpec => ({
  command: process.execPath,
  args: [CLI],
  env: { ...process.env, HOME: dir, npm_config_registry: registry.url },
});

describe("Install CUDA Build", { timeout: HANG_GUARD_MS }, () => {
  test("reports the megabytes downloaded of the total, then the CLI's verdict: bytes that are not the pinned ones install nothing", async () => {
    const seen: [number, number][] = [];
    const storage = join(dir, "mismatch");
    const r = await installCuda(cli(), storage, (mb, total) => seen.push([mb, total]));
    assert.equal(r.ok, false);
    assert.match(
      r.message,
      /linux-x64-cuda-3\.22\.1\.tgz does not match the pinned integrity: expected sha512-.*; the download was deleted and nothing was installed$/,
    );
    assert.deepEqual(seen[0], [0, 320]);
    assert.equal(existsSync(join(storage, "cuda", "node-llama-cpp-3.22.1")), false, "nothing unpacked");
    assert.equal(existsSync(join(storage, "cuda", "install.json")), false, "nothing recorded");
  });

  test("a server error, in the CLI's words", async () => {
    registry.fault(CUDA_TARBALLS[0]!.name, "error");
    const r = await installCuda(cli(), join(dir, "failing"), () => {});
    assert.deepEqual(r, {
      ok: false,
      message: `${registry.url}@node-llama-cpp/linux-x64-cuda/-/linux-x64-cuda-3.22.1.tgz: HTTP 500 Internal Server Error`,
    });
  });

  test("cancelling ends the install at once and keeps what was downloaded for the next one", async () => {
    registry.fault(CUDA_TARBALLS[0]!.name, "slow");
    const storage = join(dir, "cancel");
    const abort = new AbortController();
    const pending = installCuda(cli(), storage, () => {}, abort.signal);
    const partial = join(storage, "cuda", "downloads", "linux-x64-cuda-3.22.1.tgz.partial");
    const timer = setInterval(() => existsSync(partial) && statSync(partial).size > 0 && abort.abort(), 20);
    assert.deepEqual(await pending, { ok: false, message: "the install was cancelled" });
    clearInterval(timer);
    const kept = statSync(partial).size;
    assert.ok(kept > 0, "the bytes so far are kept");
    // the tarball holds 300,000 random bytes, which do not compress
    assert.ok(kept < 300_000, `it did not wait for the slow download to finish (${kept} bytes kept)`);
  });

  test("a command that cannot be run", async () => {
    const r = await installCuda({ command: join(dir, "no-such-node"), args: [] }, join(dir, "none"), () => {});
    assert.equal(r.ok, false);
    assert.match(r.message, /^cannot run .*no-such-node: .*ENOENT/);
  });
});
