// What every agent run needs from the endpoint: `chat-template serve` on the demo models (the tests' startEndpoint
// through the built dist/cli.js, as a user runs it), its answers per route, its log lines and its CPU time.
import { readFileSync } from "node:fs";
import { startEndpoint } from "../helpers/endpoint";
import { requestCounts } from "./requests";

export interface Endpoint {
  url: string;
  /** The endpoint's stderr lines for this route (one per request, with its prompt and cache figures). */
  log: (route: string) => string[];
  /** Answers to this route by status, from /metrics. */
  requests: (route: string) => Promise<Map<string, number>>;
  /** The CPU seconds the endpoint has used: on a busy machine a better guess of an idle CI's time than the wall clock. */
  cpuSeconds: () => number | undefined;
  stop: () => Promise<void>;
}

export async function serve(context: number): Promise<Endpoint> {
  const p = await startEndpoint(["--context", String(context)], { viaCli: true });
  const failed = p.events.find((e) => e.event === "error");
  if (failed) {
    // the endpoint stays up after a failed load (it answers 503s): stop it, or it outlives the run
    await p.stop();
    throw new Error(`the endpoint failed to load: ${String(failed.message)}`);
  }
  return {
    url: p.url,
    log: (route) => p.stderr.split("\n").filter((l) => l.includes(` ${route} `)),
    requests: (route) => requestCounts(p.url, route),
    cpuSeconds: () => cpuSeconds(p.pid),
    stop: async () => void (await p.stop()),
  };
}

/** utime + stime from /proc (Linux; clock ticks of 1/100 s), or undefined elsewhere. */
function cpuSeconds(pid: number): number | undefined {
  try {
    // the fields after the command name, which is in parentheses and may hold spaces
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}
