// The editor's way to install llama.cpp's CUDA build: `chat-template install-cuda --dir STORAGE` as a child
// process (the download runs for minutes and the check loads native libraries; neither belongs in the
// extension host), its "N of M MB downloaded" lines turned into progress, its last word into the result.
// Cancelling ends the process; what it downloaded stays and the next install resumes from there.
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

const PROGRESS = /^\s*(\d+) of (\d+) MB downloaded$/;
const FAILURE = /^chat-template install-cuda: /;

/** Installs into `storageDir` (what the endpoint gets as CTS_STORAGE_DIR); `signal` kills the install. */
export function installCuda(
  cli: CliSpec,
  storageDir: string,
  onProgress: (downloadedMB: number, totalMB: number) => void,
  signal?: AbortSignal,
): Promise<CudaInstallResult> {
  return new Promise((resolve) => {
    // its own process group, so that cancelling also ends the check process it may be running
    const child = spawn(cli.command, [...cli.args, "install-cuda", "--dir", storageDir], {
      env: cli.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const stdout: string[] = [];
    const stderr: string[] = [];
    createInterface({ input: child.stdout }).on("line", (line) => stdout.push(line));
    createInterface({ input: child.stderr }).on("line", (line) => {
      const m = PROGRESS.exec(line);
      if (m) onProgress(Number(m[1]), Number(m[2]));
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
      // the CLI's own verdict, with whatever followed it
      const from = stderr.findIndex((l) => FAILURE.test(l));
      const why = from >= 0 ? stderr.slice(from).join("\n").replace(FAILURE, "") : stderr.slice(-5).join("\n") || `exit ${code ?? how}`;
      resolve({ ok: false, message: why });
    });
  });
}
