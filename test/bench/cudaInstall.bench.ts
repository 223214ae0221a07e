// Install CUDA Build's own cost, without the network: two tarballs of the real ones' sizes (incompressible
// bytes, as the real libraries nearly are) served from a loopback registry, then download, sha512 check and
// unpack into a fresh storage folder (installCudaFiles: everything but the GPU check, which needs a GPU).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CUDA_TARBALLS, installCudaFiles } from "../../native/engine";
import { makeTarball, startTarballRegistry } from "../helpers/tarballRegistry";
import type { BenchSuite } from "./bench";

const RUNS = 3;

const suite: BenchSuite = {
  name: `CUDA install from a loopback registry (${CUDA_TARBALLS.map((t) => `${Math.round(t.bytes / 1e6)} MB`).join(" + ")}, ${RUNS} runs)`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), "cts-cuda-bench-"));
    try {
      const tarballs = await Promise.all(
        CUDA_TARBALLS.map((t) => makeTarball(dir, t.name, t.version, { "bins/linux-x64-cuda/libggml-cuda.so": randomBytes(t.bytes) })),
      );
      const registry = await startTarballRegistry(tarballs);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const storageDir = join(dir, `storage-${i}`);
        const t0 = process.hrtime.bigint();
        await installCudaFiles({ storageDir, registry: { registry: registry.url, source: "bench" }, tarballs });
        times.push(Number(process.hrtime.bigint() - t0) / 1e9);
        rmSync(storageDir, { recursive: true, force: true });
      }
      await registry.close();
      times.sort((a, b) => a - b);
      console.log(
        `  download + sha512 + unpack     ${times.map((t) => t.toFixed(1)).join(" / ")} s (median ${times[Math.floor(RUNS / 2)]!.toFixed(1)} s)`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;
