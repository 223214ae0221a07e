// What every agent run needs from the endpoint: `chat-template serve` on the demo models in a child process (the
// built dist/cli.js, as a user runs it), its answers per route and status from /metrics, and its log lines.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

const CLI = join(__dirname, "..", "..", "dist", "cli.js");

export interface Endpoint {
  url: string;
  /** The endpoint's stderr lines for this route (one per request, with its prompt and cache figures). */
  log: (route: string) => string[];
  /** Answers to this route by status, from /metrics: `2×200, 1×400`. */
  requests: (route: string) => Promise<Map<string, number>>;
  /** The CPU seconds the endpoint has used: on a busy machine a better guess of an idle CI's time than the wall clock. */
  cpuSeconds: () => number | undefined;
  stop: () => Promise<void>;
}

export function serve(context: number, storage: string): Promise<Endpoint> {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--context", String(context)], {
    env: { ...process.env, CTS_STORAGE_DIR: storage },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return new Promise((resolve, reject) => {
    let url = "";
    createInterface({ input: child.stdout }).on("line", (line) => {
      const e = JSON.parse(line) as { event: string; url?: string; message?: string };
      if (e.event === "listening") url = e.url!;
      if (e.event === "error") {
        // the endpoint stays up after a failed load (it answers 503s): stop it, or it outlives the run
        child.kill("SIGTERM");
        reject(new Error(`the endpoint failed to load: ${e.message}`));
      }
      if (e.event === "ready")
        resolve({
          url,
          log: (route) => stderr.split("\n").filter((l) => l.includes(` ${route} `)),
          requests: (route) => requestCounts(url, route),
          cpuSeconds: () => cpuSeconds(child.pid),
          stop: () => (child.kill("SIGTERM"), exited),
        });
    });
    void exited.then(() => reject(new Error(`the endpoint exited before it was ready:\n${stderr}`)));
  });
}

/** utime + stime from /proc (Linux; clock ticks of 1/100 s), or undefined elsewhere. */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    // the fields after the command name, which is in parentheses and may hold spaces
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

async function requestCounts(url: string, route: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const counts = new Map<string, number>();
  for (const m of text.matchAll(/^cts_requests_total\{route="([^"]+)",status="(\d+)"\} (\d+)$/gm))
    if (m[1] === route) counts.set(m[2], Number(m[3]));
  return counts;
}

export const formatCounts = (counts: Map<string, number>) => [...counts].map(([status, n]) => `${n}×${status}`).join(", ") || "none";
