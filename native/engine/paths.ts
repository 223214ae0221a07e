// Where the native pieces live on disk: the addons built by native/build.mjs, node-llama-cpp's CPU
// libraries, and CUDA libraries installed by `chat-template install-cuda`. Resolved from the package
// root, so the same code works from sources (tsx), from the dist/ bundle and from an installed extension.
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../../server/src/commandLine";

export const LLAMA_PACKAGE_VERSION = "3.22.1";
export const CUDA_PACKAGES = ["@node-llama-cpp/linux-x64-cuda", "@node-llama-cpp/linux-x64-cuda-ext"] as const;

/** Folder of cts_engine.node, cts_loader.node and dflash-bench. */
export function nativeBinDir(): string {
  return process.env.CTS_NATIVE_BIN ?? join(packageRoot(), "native", "build", "cmake", "bin");
}

export function cpuLibDir(): string {
  return join(packageRoot(), "node_modules", "@node-llama-cpp", "linux-x64", "bins", "linux-x64");
}

/** Per-user data: the CLI's default; the extension passes its global storage folder instead. */
export function defaultStorageDir(): string {
  return process.env.CTS_STORAGE_DIR ?? join(process.env.XDG_DATA_HOME ?? join(homedir(), ".local", "share"), "chat-template-studio");
}

export interface CudaLibs {
  /** node-llama-cpp's CUDA build: libllama-common.so and friends, maybe libggml-cuda.so. */
  libDir: string;
  /** The -ext package's backend that bundles the CUDA runtime, for machines without CUDA 13 installed. */
  fallbackDir?: string;
}

/** The CUDA libraries under an npm prefix (node_modules/@node-llama-cpp/...), if really installed. */
export function findCudaLibs(prefix: string): CudaLibs | undefined {
  const bins = join(prefix, "node_modules", CUDA_PACKAGES[0], "bins");
  const folder = existsSync(bins) ? readdirSync(bins).find((d) => existsSync(join(bins, d, "libllama-common.so"))) : undefined;
  if (!folder) return undefined;
  const fallback = join(prefix, "node_modules", CUDA_PACKAGES[1], "bins", folder, "fallback");
  return { libDir: join(bins, folder), fallbackDir: existsSync(fallback) ? fallback : undefined };
}
