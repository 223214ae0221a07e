// The editor's way to install llama.cpp's CUDA build: `chat-template install-cuda --dir STORAGE` as a child
// process (npm runs for minutes and the check loads native libraries; neither belongs in the extension host),
// its "N MB unpacked" lines turned into progress, its last word into the result.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

export interface CliSpec {
  command: string;
  /** The CLI and any arguments before `install-cuda`'s own. */
  args: string[];
  env?: NodeJS.ProcessEnv;
}

export interface CudaInstallResult {
  ok: boolean;
  message: string;
}

const PROGRESS = /^\s*(\d+) MB unpacked$/;
const FAILURE = /^chat-template install-cuda: /;

/** Installs into `storageDir` (what the endpoint gets as CTS_STORAGE_DIR); `signal` kills the install. */
export function installCuda(cli: CliSpec, storageDir: string, onProgress: (unpackedMB: number) => void, signal?: AbortSignal): Promise<CudaInstallResult> {
  return new Promise((resolve) => {
    // its own process group, so that cancelling also ends the npm it runs
    const child = spawn(cli.command, [...cli.args, "install-cuda", "--dir", storageDir], { env: cli.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const stdout: string[] = [];
    const stderr: string[] = [];
    createInterface({ input: child.stdout }).on("line", (line) => stdout.push(line));
    createInterface({ input: child.stderr }).on("line", (line) => {
      const m = PROGRESS.exec(line);
      if (m) onProgress(Number(m[1]));
      else stderr.push(line);
    });
    const abort = () => {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // already gone
      }
    };
    signal?.addEventListener("abort", abort);
    let spawnError: Error | null = null;
    child.once("error", (e) => (spawnError = e));
    child.once("close", (code, how) => {
      signal?.removeEventListener("abort", abort);
      if (spawnError) return resolve({ ok: false, message: `cannot run ${cli.command}: ${spawnError.message}` });
      if (signal?.aborted) return resolve({ ok: false, message: "the install was cancelled" });
      if (code === 0) return resolve({ ok: true, message: stdout.at(-1) ?? "CUDA build installed" });
      // the CLI's own verdict, with what npm printed after it
      const from = stderr.findIndex((l) => FAILURE.test(l));
      const why = from >= 0 ? stderr.slice(from).join("\n").replace(FAILURE, "") : stderr.slice(-5).join("\n") || `exit ${code ?? how}`;
      resolve({ ok: false, message: why });
    });
  });
}
