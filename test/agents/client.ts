// Running an agent's command line as a user does: to its end, with its output kept for the report.
import { spawn } from "node:child_process";

export interface ClientRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
}

/** Runs an agent's command line to its end, or kills it at `timeoutMs` (a hung client fails, never hangs CI). */
export function runClient(
  binary: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<ClientRun> {
  const started = Date.now();
  const child = spawn(binary, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  let [stdout, stderr] = ["", ""];
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
  return new Promise((resolve) =>
    child.once("exit", (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stdout, stderr, seconds: (Date.now() - started) / 1000 });
    }),
  );
}
