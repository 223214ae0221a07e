// Runs the built CLI (dist/cli.js, what `npx chat-template` runs) as a child process.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

export const CLI = resolve(__dirname, "../../dist/cli.js");

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
  stdoutBytes: Buffer;
}

export function runCli(args: string[], options: { input?: string; cwd?: string; env?: Record<string, string> } = {}): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    input: options.input,
    cwd: options.cwd,
    env: options.env && { ...process.env, ...options.env },
    maxBuffer: 1 << 28,
  });
  return { status: r.status, stdout: r.stdout.toString("utf8"), stderr: r.stderr.toString("utf8"), stdoutBytes: r.stdout };
}

export const fixture = (name: string): string => resolve(__dirname, "../fixtures/templates", name);
