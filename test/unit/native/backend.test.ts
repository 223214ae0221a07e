// Which llama.cpp build a process runs on, and why; and how an installed CUDA build is judged and recorded
// (the install itself: cudaInstall.test.ts).
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { judgeCuda, loadBackend } from "../../../native/engine/backend";
import { judgeVerification, readCudaRecord, writeCudaRecord } from "../../../native/engine/cudaInstall";
import { findCudaLibs } from "../../../native/engine/paths";
import type { BackendInfo } from "../../../native/engine/types";
import { tempDir } from "../../helpers/gguf";

const tmp = tempDir("backend");
after(tmp.cleanup);

/** An npm prefix laid out like the real CUDA packages, with placeholder files. */
function fakeCudaPrefix(name: string, withFallback: boolean): string {
  const prefix = join(tmp.dir, name);
  const bins = join(prefix, "node_modules", "@node-llama-cpp", "linux-x64-cuda", "bins", "linux-x64-cuda");
  mkdirSync(bins, { recursive: true });
  writeFileSync(join(bins, "libllama-common.so"), "not really a library");
  if (withFallback) {
    const fb = join(prefix, "node_modules", "@node-llama-cpp", "linux-x64-cuda-ext", "bins", "linux-x64-cuda", "fallback");
    mkdirSync(fb, { recursive: true });
  }
  return prefix;
}

const gpu = { driver: true, driverVersion: 13000, devices: [{ name: "NVIDIA H200", computeCapability: "9.0", memory: 150e9 }] };

describe("backend choice", () => {
  it("explains each reason CUDA cannot be used, and picks the bundled runtime when the system has none", () => {
    const libs = findCudaLibs(fakeCudaPrefix("judge", true))!;
    assert.ok(libs.fallbackDir);
    const loader = (probe: object, load: Record<string, string | null>) => ({
      probeCuda: () => probe as never,
      tryLoad: (p: string) => load[p.includes("fallback") ? "fallback" : "own"] ?? null,
    });
    assert.match(
      judgeCuda(loader(gpu, {}), undefined).unusable!,
      /no CUDA build of llama\.cpp is installed \(run `chat-template install-cuda`, or in VS Code: Chat Template: Install CUDA Build\)/,
    );
    assert.equal(
      judgeCuda(loader({ driver: false, error: "no NVIDIA driver: libcuda.so.1: cannot open" }, {}), libs).unusable,
      "no NVIDIA driver: libcuda.so.1: cannot open",
    );
    assert.match(judgeCuda(loader({ driver: true, devices: [] }, {}), libs).unusable!, /reports no CUDA device/);
    assert.deepEqual(judgeCuda(loader(gpu, { own: null }), libs), { libs, unusable: null, libDirs: [libs.libDir] });
    assert.deepEqual(judgeCuda(loader(gpu, { own: "libcublas.so.13: cannot open", fallback: null }), libs).libDirs, [
      libs.libDir,
      libs.fallbackDir,
    ]);
    assert.match(
      judgeCuda(loader(gpu, { own: "libcublas.so.13: cannot open", fallback: "libcuda.so.1: version mismatch" }), libs).unusable!,
      /the CUDA backend does not load: libcublas\.so\.13: cannot open; bundled runtime: libcuda\.so\.1: version mismatch/,
    );
  });

  it("runs this machine on the CPU build and says why", () => {
    const { info } = loadBackend({ storageDir: join(tmp.dir, "empty-storage") });
    assert.equal(info.kind, "cpu");
    assert.match(info.reason, /^running on the CPU: /);
    assert.ok(info.libDirs[0].endsWith(join("@node-llama-cpp", "linux-x64", "bins", "linux-x64")));
    assert.ok(info.devices.some((d) => d.type === "cpu"));
    assert.equal(loadBackend({ prefer: "cuda" }).info, info, "a process keeps its first choice");
  });

  it("ignores the empty override packages in node_modules and records installs by version", () => {
    assert.equal(findCudaLibs(join(__dirname, "../../..")), undefined, "npm ci's CUDA packages are empty placeholders");
    const storage = join(tmp.dir, "storage");
    assert.equal(readCudaRecord(storage), undefined);
    writeCudaRecord(storage, { version: "3.22.1", prefix: "/x", installedAt: "now", devices: ["H200"] });
    assert.equal(readCudaRecord(storage)?.prefix, "/x");
    writeCudaRecord(storage, { version: "0.0.1", prefix: "/old", installedAt: "then", devices: [] });
    assert.equal(readCudaRecord(storage), undefined, "another version's record is not used");
  });
});

describe("install-cuda", () => {
  it("judges a verification run", () => {
    const prefix = fakeCudaPrefix("verify", false);
    const cpu: BackendInfo = { kind: "cpu", libDirs: [], reason: "running on the CPU: no NVIDIA driver", devices: [], llamaBuild: "b1-x" };
    assert.deepEqual(judgeVerification(join(tmp.dir, "nothing"), cpu), {
      ok: false,
      message: `the tarballs were unpacked but @node-llama-cpp/linux-x64-cuda put no libraries under ${join(tmp.dir, "nothing")}`,
    });
    assert.match(
      (judgeVerification(prefix, { error: "boom" }) as { message: string }).message,
      /installed but does not load on this machine: boom/,
    );
    assert.match(
      (judgeVerification(prefix, cpu) as { message: string }).message,
      /cannot be used on this machine: running on the CPU: no NVIDIA driver/,
    );
    const cuda: BackendInfo = {
      kind: "cuda",
      libDirs: [],
      reason: "",
      devices: [{ name: "CUDA0", description: "NVIDIA H200", type: "gpu", backend: "CUDA", memoryTotal: 1, memoryFree: 1 }],
      llamaBuild: "b1-x",
    };
    assert.deepEqual(judgeVerification(prefix, cuda), { ok: true, devices: ["CUDA0 (NVIDIA H200)"] });
  });
});
