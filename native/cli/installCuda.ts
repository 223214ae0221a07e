// `chat-template install-cuda [--dir DIR] [--npm PATH]`: installs node-llama-cpp's pinned CUDA build with
// npm into DIR (default: the per-user data folder), checks in a fresh process that it loads and sees a
// GPU, and records it; from then on loadBackend() picks it when CUDA is usable.
import { spawnSync } from "node:child_process";
import { UsageError, parseArgs } from "../../server/src/cli/args";
import type { CommandIO } from "../../server/src/cli/io";
import { loadBackend } from "../engine/backend";
import { judgeVerification, planCudaInstall, runInstall, writeCudaRecord } from "../engine/cudaInstall";
import { CUDA_INSTALL_MB, CUDA_PACKAGES, LLAMA_PACKAGE_VERSION, defaultStorageDir } from "../engine/paths";
import type { BackendInfo } from "../engine/types";

export const usage = "chat-template install-cuda [--dir DIR] [--npm PATH]";

/** The check runs in a child: a process holds one llama.cpp build for life, and a broken CUDA setup may crash. */
function verifyInChild(prefix: string): BackendInfo | { error: string } {
  const r = spawnSync(process.execPath, [process.argv[1], "install-cuda", "--check", prefix], { encoding: "utf8", timeout: 120_000 });
  const last = r.stdout.trim().split("\n").at(-1) ?? "";
  try {
    return JSON.parse(last) as BackendInfo | { error: string };
  } catch {
    return { error: `the check process failed (${r.signal ?? `exit ${r.status}`}): ${(r.stderr || r.stdout).trim().slice(-500)}` };
  }
}

export async function installCudaCommand(argv: string[], io: CommandIO): Promise<number> {
  const args = parseArgs(argv, { values: ["dir", "npm", "check"] });
  if (args.positionals.length) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const check = args.values.get("check");
  if (check !== undefined) {
    // the child side of verifyInChild: load the new install and report what it found, as one JSON line
    try {
      io.stdout(JSON.stringify(loadBackend({ prefer: "cuda", cudaPrefix: check }).info) + "\n");
    } catch (e) {
      io.stdout(JSON.stringify({ error: (e as Error).message }) + "\n");
    }
    return 0;
  }
  if (process.platform !== "linux" || process.arch !== "x64") {
    io.stderr(`chat-template install-cuda: the CUDA build is for linux-x64, this is ${process.platform}-${process.arch}\n`);
    return 1;
  }
  const storage = args.values.get("dir") ?? defaultStorageDir();
  const plan = planCudaInstall(storage, args.values.get("npm"));
  io.stderr(`installing ${CUDA_PACKAGES.map((p) => `${p}@${LLAMA_PACKAGE_VERSION}`).join(" and ")} (about ${CUDA_INSTALL_MB} MB) into ${plan.prefix}\n`);
  try {
    let last = -1;
    await runInstall(plan, (mb) => {
      if (mb !== last) io.stderr(`  ${mb} MB unpacked\n`);
      last = mb;
    });
  } catch (e) {
    io.stderr(`chat-template install-cuda: ${(e as Error).message}\n`);
    return 1;
  }
  io.stderr("checking that the CUDA build loads and finds a GPU…\n");
  const verdict = judgeVerification(plan.prefix, verifyInChild(plan.prefix));
  if (!verdict.ok) {
    io.stderr(`chat-template install-cuda: ${verdict.message}\n`);
    return 1;
  }
  writeCudaRecord(storage, { version: LLAMA_PACKAGE_VERSION, prefix: plan.prefix, installedAt: new Date().toISOString(), devices: verdict.devices });
  io.stdout(`CUDA build installed and recorded; GPU: ${verdict.devices.join(", ")}\n`);
  return 0;
}
