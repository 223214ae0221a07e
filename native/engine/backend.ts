// Chooses the llama.cpp build this process runs on — CUDA when an NVIDIA driver, a device and loadable
// CUDA libraries are all there, else the CPU build that ships with the package — and loads the addons.
// A process can hold only one build (both define the same symbols), so the first call decides and later
// calls get the same answer.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readCudaRecord } from "./cudaInstall";
import { EngineError } from "./errors";
import type { EngineAddon, LoaderAddon } from "./native";
import { cpuLibDir, defaultStorageDir, findCudaLibs, nativeBinDir, type CudaLibs } from "./paths";
import type { BackendInfo } from "./types";

export interface BackendOptions {
  /** "auto" (default, or $CTS_BACKEND): CUDA when usable, else CPU. "cuda" fails rather than fall back. */
  prefer?: "auto" | "cpu" | "cuda";
  /** Where install-cuda recorded its install (default: the per-user data folder). */
  storageDir?: string;
  /** An npm prefix with the CUDA packages, instead of the recorded install (install-cuda's check). */
  cudaPrefix?: string;
  /** Write llama.cpp's log to stderr (default: $CTS_LLAMA_LOG set). */
  verbose?: boolean;
}

export interface CudaChoice {
  libs?: CudaLibs;
  /** null when CUDA can be used; otherwise why not. */
  unusable: string | null;
  /** The folders to load backends from when usable. */
  libDirs: string[];
}

/** Decides whether CUDA is usable, touching nothing but the loader's probes (nothing stays loaded). */
export function judgeCuda(loader: Pick<LoaderAddon, "probeCuda" | "tryLoad">, libs: CudaLibs | undefined): CudaChoice {
  if (!libs)
    return {
      unusable:
        "no CUDA build of llama.cpp is installed (run `chat-template install-cuda`, or in VS Code: Chat Template: Install CUDA Build)",
      libDirs: [],
    };
  const probe = loader.probeCuda();
  if (!probe.driver) return { libs, unusable: probe.error ?? "no NVIDIA driver", libDirs: [] };
  if (probe.error) return { libs, unusable: probe.error, libDirs: [] };
  if (!probe.devices?.length) return { libs, unusable: "the NVIDIA driver reports no CUDA device", libDirs: [] };
  // libggml-cuda.so needs CUDA 13's runtime and cuBLAS: the system's, or the ones the -ext package bundles
  const own = loader.tryLoad(join(libs.libDir, "libggml-cuda.so"));
  if (own === null) return { libs, unusable: null, libDirs: [libs.libDir] };
  if (libs.fallbackDir) {
    const bundled = loader.tryLoad(join(libs.fallbackDir, "libggml-cuda.so"));
    if (bundled === null) return { libs, unusable: null, libDirs: [libs.libDir, libs.fallbackDir] };
    return { libs, unusable: `the CUDA backend does not load: ${own}; bundled runtime: ${bundled}`, libDirs: [] };
  }
  return { libs, unusable: `the CUDA backend does not load: ${own}`, libDirs: [] };
}

let loaded: { addon: EngineAddon; info: BackendInfo } | undefined;

function requireAddon<T>(file: string): T {
  const path = join(nativeBinDir(), file);
  if (!existsSync(path)) {
    throw new EngineError("backend_unavailable", `the native engine is not built (${path} is missing): run npm ci or npm run build:native`);
  }
  return require(path) as T;
}

/** Loads the native engine on the chosen build; later calls return the first call's choice. */
export function loadBackend(options: BackendOptions = {}): { addon: EngineAddon; info: BackendInfo } {
  if (loaded) return loaded;
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new EngineError("backend_unavailable", `the native engine runs on linux-x64 only (this is ${process.platform}-${process.arch})`);
  }
  const prefer = options.prefer ?? (process.env.CTS_BACKEND as BackendOptions["prefer"]) ?? "auto";
  const loader = requireAddon<LoaderAddon>("cts_loader.node");
  let kind: BackendInfo["kind"] = "cpu";
  let libDirs = [cpuLibDir()];
  let reason = "the CPU build was requested";
  if (prefer !== "cpu") {
    const prefix = options.cudaPrefix ?? readCudaRecord(options.storageDir ?? defaultStorageDir())?.prefix;
    const choice = judgeCuda(loader, prefix ? findCudaLibs(prefix) : undefined);
    if (choice.unusable === null) {
      kind = "cuda";
      libDirs = choice.libDirs;
      reason = "an NVIDIA GPU and the CUDA build are available";
    } else if (prefer === "cuda") {
      throw new EngineError("backend_unavailable", `CUDA was requested but cannot be used: ${choice.unusable}`);
    } else {
      reason = `running on the CPU: ${choice.unusable}`;
    }
  }
  const error = loader.loadGlobal(join(libDirs[0], "libllama-common.so"));
  if (error !== null) throw new EngineError("backend_unavailable", `cannot load llama.cpp from ${libDirs[0]}: ${error}`);
  const addon = requireAddon<EngineAddon>("cts_engine.node");
  addon.init(libDirs, options.verbose ?? process.env.CTS_LLAMA_LOG !== undefined);
  // stop native threads before exit() destroys llama.cpp's static state under a running decode
  process.once("exit", () => addon.shutdown());
  const devices = addon.devices();
  if (kind === "cuda" && !devices.some((d) => d.type === "gpu")) {
    // the CUDA build's CPU backends still run; say why the GPU is not used
    kind = "cpu";
    reason = "running on the CPU: the CUDA backend loaded but registered no GPU device";
  }
  loaded = { addon, info: { kind, libDirs, reason, devices, llamaBuild: addon.llamaBuild() } };
  return loaded;
}
