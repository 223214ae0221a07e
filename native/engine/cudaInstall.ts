// Installing node-llama-cpp's CUDA build (about 300 MB with its bundled CUDA runtime, too large for the
// .vsix and for `npm ci`) into a per-user folder, checking it works on this machine, and recording it so
// that loadBackend() uses it from then on.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CUDA_PACKAGES, LLAMA_PACKAGE_VERSION, findCudaLibs } from "./paths";
import type { BackendInfo } from "./types";

export interface CudaRecord {
  version: string;
  /** npm prefix holding node_modules/@node-llama-cpp/linux-x64-cuda(-ext). */
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

export interface InstallPlan {
  prefix: string;
  command: string;
  args: string[];
  /** Written to the prefix first, so npm installs exactly these versions and nothing else. */
  packageJson: object;
}

export function planCudaInstall(storageDir: string, npm = "npm"): InstallPlan {
  const prefix = join(storageDir, "cuda", `node-llama-cpp-${LLAMA_PACKAGE_VERSION}`);
  return {
    prefix,
    command: npm,
    args: ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--ignore-scripts", "--omit=dev"],
    packageJson: {
      name: "chat-template-studio-cuda",
      private: true,
      dependencies: Object.fromEntries(CUDA_PACKAGES.map((p) => [p, LLAMA_PACKAGE_VERSION])),
    },
  };
}

function folderBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    total += s.isDirectory() ? folderBytes(p) : s.size;
  }
  return total;
}

/** Runs npm; reports the megabytes unpacked so far every second. Rejects with npm's own error output. */
export function runInstall(plan: InstallPlan, onProgress: (unpackedMB: number) => void): Promise<void> {
  mkdirSync(plan.prefix, { recursive: true });
  writeFileSync(join(plan.prefix, "package.json"), JSON.stringify(plan.packageJson, null, 2) + "\n");
  return new Promise((resolve, reject) => {
    const child = spawn(plan.command, plan.args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setInterval(() => onProgress(Math.round(folderBytes(join(plan.prefix, "node_modules")) / 1e6)), 1000);
    child.on("error", (e) => {
      clearInterval(timer);
      reject(new Error(`cannot run ${plan.command}: ${(e as NodeJS.ErrnoException).code ?? e.message}`));
    });
    child.on("close", (code) => {
      clearInterval(timer);
      if (code === 0) resolve();
      else reject(new Error(`${plan.command} install failed (exit ${code}):\n${output.trim().split("\n").slice(-15).join("\n")}`));
    });
  });
}

/** Whether a verification run (loadBackend on the new install, in a child process) says CUDA works here. */
export function judgeVerification(prefix: string, info: BackendInfo | { error: string }): { ok: true; devices: string[] } | { ok: false; message: string } {
  if (!findCudaLibs(prefix)) {
    return { ok: false, message: `npm finished but ${CUDA_PACKAGES[0]} put no libraries under ${prefix}` };
  }
  if ("error" in info) return { ok: false, message: `the CUDA build is installed but does not load on this machine: ${info.error}` };
  const gpus = info.devices.filter((d) => d.type === "gpu");
  if (info.kind !== "cuda" || gpus.length === 0) {
    return { ok: false, message: `the CUDA build is installed but cannot be used on this machine: ${info.reason}` };
  }
  return { ok: true, devices: gpus.map((d) => `${d.name} (${d.description})`) };
}
