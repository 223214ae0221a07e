// `chat-template install-cuda [--dir DIR] [--registry URL]`: downloads node-llama-cpp's pinned CUDA build
// (the tarballs of @node-llama-cpp/linux-x64-cuda and -cuda-ext) from the npm registry the user configured
// (or --registry), checks each against its pinned sha512, unpacks it into DIR (default: the per-user data
// folder), checks in a fresh process that it loads and sees a GPU, and records it; from then on loadBackend()
// picks it when CUDA is usable. No npm needed. A cut or cancelled download resumes on the next run.
import { spawnSync } from "node:child_process";
import { type CommandHelp, type CommandIO, parseArgs, UsageError } from "../../server/src/commandLine";
import {
  CUDA_DOWNLOAD_MB,
  CUDA_TARBALLS,
  LLAMA_PACKAGE_VERSION,
  defaultStorageDir,
  installCudaFiles,
  judgeVerification,
  loadBackend,
  npmRegistry,
  writeCudaRecord,
  type BackendInfo,
  type RegistryConfig,
} from "../engine";

export const help: CommandHelp = {
  usage: "chat-template install-cuda [--dir DIR] [--registry URL]",
  summary: "install llama.cpp's CUDA build for the endpoint, without npm (pinned sha512, resumable)",
  description:
    "Downloads node-llama-cpp's CUDA build (two tarballs, the CUDA runtime included) from the npm registry your npm " +
    "configuration names (or npmjs.org), checks each against the sha512 pinned in this release, unpacks them into " +
    "DIR/cuda, checks in a fresh process that the build loads and sees a GPU, and records it: from then on serve and " +
    "bench run on CUDA when a driver and a device are present. A cut or interrupted download resumes on the next run.",
  options: [
    ["--dir DIR", "where to install (default ~/.local/share/chat-template-studio, or $CTS_STORAGE_DIR)"],
    ["--registry URL", "the npm registry to download from, overriding the npm configuration"],
  ],
  examples: ["chat-template install-cuda", "chat-template install-cuda --registry https://registry.npmjs.org/"],
  exitCodes: [
    [0, "installed and checked"],
    [1, "the download, its hash, the unpacking or the check failed (the message says which)"],
    [2, "usage error"],
  ],
};

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

function registryOf(flag: string | undefined): RegistryConfig {
  if (flag === undefined) return npmRegistry(CUDA_TARBALLS[0]!.name);
  try {
    new URL(flag);
  } catch {
    throw new UsageError(`--registry must be a URL, not ${JSON.stringify(flag)}`);
  }
  return { registry: flag, source: "--registry" };
}

export async function installCudaCommand(argv: string[], io: CommandIO): Promise<number> {
  const args = parseArgs(argv, { values: ["dir", "registry", "check"] });
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
  const registry = registryOf(args.values.get("registry"));
  const storage = args.values.get("dir") ?? defaultStorageDir();
  const names = CUDA_TARBALLS.map((t) => `${t.name}@${t.version}`).join(" and ");
  io.stderr(`downloading ${names} (${CUDA_DOWNLOAD_MB} MB) from ${registry.registry} (${registry.source}) into ${storage}\n`);
  let prefix: string;
  try {
    let shown = -1;
    prefix = await installCudaFiles({
      storageDir: storage,
      registry,
      onProgress: (received, total) => {
        const mb = Math.floor(received / 1e6);
        if (mb !== shown) io.stderr(`  ${mb} of ${Math.round(total / 1e6)} MB downloaded\n`);
        shown = mb;
      },
    });
  } catch (e) {
    io.stderr(`chat-template install-cuda: ${(e as Error).message}\n`);
    return 1;
  }
  io.stderr("checking that the CUDA build loads and finds a GPU…\n");
  const verdict = judgeVerification(prefix, verifyInChild(prefix));
  if (!verdict.ok) {
    io.stderr(`chat-template install-cuda: ${verdict.message}\n`);
    return 1;
  }
  writeCudaRecord(storage, { version: LLAMA_PACKAGE_VERSION, prefix, installedAt: new Date().toISOString(), devices: verdict.devices });
  io.stdout(`CUDA build installed and recorded; GPU: ${verdict.devices.join(", ")}\n`);
  return 0;
}
