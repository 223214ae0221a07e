// Installing node-llama-cpp's CUDA build (about 320 MB of tarballs with its bundled CUDA runtime, too large
// for the .vsix and for `npm ci`) into a per-user folder without npm (most desktop VS Code users have none):
// the pinned tarballs from the user's npm registry, checked against pinned hashes, unpacked with tar; then a
// check that it works on this machine, and a record so that loadBackend() uses it from then on.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { extract } from "tar";
import { CUDA_TARBALLS, tarballUrl, type PinnedTarball } from "./cudaPackages";
import { download } from "./download";
import type { RegistryConfig } from "./npmRegistry";
import { CUDA_PACKAGES, LLAMA_PACKAGE_VERSION, findCudaLibs } from "./paths";
import type { BackendInfo } from "./types";

export interface CudaRecord {
  version: string;
  /** Folder holding node_modules/@node-llama-cpp/linux-x64-cuda(-ext). */
  prefix: string;
  installedAt: string;
  devices: string[];
}

const recordFile = (storageDir: string) => join(storageDir, "cuda", "install.json");

export function readCudaRecord(storageDir: string): CudaRecord | undefined {
  try {
    const r = JSON.parse(readFileSync(recordFile(storageDir), "utf8")) as CudaRecord;
    return r.version === LLAMA_PACKAGE_VERSION && typeof r.prefix === "string" ? r : undefined;
  } catch {
    return undefined;
  }
}

export function writeCudaRecord(storageDir: string, record: CudaRecord): void {
  mkdirSync(join(storageDir, "cuda"), { recursive: true });
  writeFileSync(recordFile(storageDir), JSON.stringify(record, null, 2) + "\n");
}

/** The npm-style prefix the CUDA build is unpacked into: <prefix>/node_modules/@node-llama-cpp/<package>/. */
export function cudaPrefix(storageDir: string): string {
  return join(storageDir, "cuda", `node-llama-cpp-${LLAMA_PACKAGE_VERSION}`);
}

export interface CudaInstallOptions {
  storageDir: string;
  registry: RegistryConfig;
  /** What to fetch; tests pass their own tarballs. */
  tarballs?: readonly PinnedTarball[];
  signal?: AbortSignal;
  /** Bytes of all tarballs on disk so far (resumed ones included), of the pinned total. */
  onProgress?: (received: number, total: number) => void;
}

/**
 * Downloads each pinned tarball (resuming a cut download), checks its sha512, and only when all of them
 * match unpacks them side by side into a fresh folder that then replaces cudaPrefix(): a wrong hash, a
 * server error or a cancel installs nothing and leaves an earlier install as it was. Returns the prefix.
 */
export async function installCudaFiles(o: CudaInstallOptions): Promise<string> {
  const tarballs = o.tarballs ?? CUDA_TARBALLS;
  const downloads = join(o.storageDir, "cuda", "downloads");
  mkdirSync(downloads, { recursive: true });
  const total = tarballs.reduce((sum, t) => sum + t.bytes, 0);
  const files: string[] = [];
  let done = 0;
  for (const t of tarballs) {
    const file = join(downloads, `${t.name.split("/").at(-1)}-${t.version}.tgz`);
    await download({
      url: tarballUrl(o.registry.registry, t),
      file,
      integrity: t.integrity,
      headers: o.registry.authToken ? { authorization: `Bearer ${o.registry.authToken}` } : undefined,
      signal: o.signal,
      onProgress: (received) => o.onProgress?.(done + received, total),
    });
    done += t.bytes;
    files.push(file);
  }
  const prefix = cudaPrefix(o.storageDir);
  const staging = `${prefix}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    for (const [i, t] of tarballs.entries()) {
      const dest = join(staging, "node_modules", t.name);
      mkdirSync(dest, { recursive: true });
      // npm tarballs hold one top folder, package/; tar refuses absolute paths and ".." by default
      await extract({ file: files[i]!, cwd: dest, strip: 1 });
    }
    rmSync(prefix, { recursive: true, force: true });
    renameSync(staging, prefix);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  // unpacked and verified: the tarballs' 300 MB are not kept
  for (const f of files) rmSync(f, { force: true });
  return prefix;
}

/** Whether a verification run (loadBackend on the new install, in a child process) says CUDA works here. */
export function judgeVerification(
  prefix: string,
  info: BackendInfo | { error: string },
): { ok: true; devices: string[] } | { ok: false; message: string } {
  if (!findCudaLibs(prefix)) {
    return { ok: false, message: `the tarballs were unpacked but ${CUDA_PACKAGES[0]} put no libraries under ${prefix}` };
  }
  if ("error" in info) return { ok: false, message: `the CUDA build is installed but does not load on this machine: ${info.error}` };
  const gpus = info.devices.filter((d) => d.type === "gpu");
  if (info.kind !== "cuda" || gpus.length === 0) {
    return { ok: false, message: `the CUDA build is installed but cannot be used on this machine: ${info.reason}` };
  }
  return { ok: true, devices: gpus.map((d) => `${d.name} (${d.description})`) };
}
