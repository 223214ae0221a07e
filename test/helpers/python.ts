// Runs Python with jinja2 when this machine has it (CI installs Debian's python3-jinja2).
import { spawnSync } from "node:child_process";

let available: boolean | undefined;

export function hasPythonJinja2(): boolean {
  if (available === undefined) {
    const r = spawnSync("python3", ["-c", "import jinja2"], { stdio: "ignore" });
    available = r.status === 0;
  }
  return available;
}

/** Runs `script` with `input` as JSON on stdin and returns its stdout parsed as JSON. */
export function runPythonJson<T>(script: string, input: unknown): T {
  const r = spawnSync("python3", ["-c", script], { input: JSON.stringify(input), maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr.toString()}`);
  return JSON.parse(r.stdout.toString()) as T;
}
