// Runs node scripts as child processes capped in heap and wall-clock time, a few at a time, and reports how
// each ended: exit code or signal, output, peak memory and CPU time (through exitReport.cjs) and whether the
// time cap killed it. The reliability suites use it so that a crash, a hang or a memory blow-up of what they
// test is a result to assert on, not the end of the test run. They bound CPU time, not wall-clock time: the
// machines that run the tests are shared, and a render that waited for a core did not hang.
import { spawn } from "node:child_process";
import { resolve } from "node:path";

const EXIT_REPORT = resolve(__dirname, "exitReport.cjs");

export interface BoundedRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Peak resident set in MiB and CPU time in ms; null where the process died before it could report (a V8 abort, the time cap). */
  report: { maxRssMb: number; cpuMs: number } | null;
  /** Killed at the wall-clock cap. */
  timedOut: boolean;
}

export interface Bounds {
  heapMb: number;
  /** Wall-clock time after which the process is killed (a hang; CPU time is what tests bound). */
  wallMs: number;
}

export function runBounded(script: string, args: readonly string[], bounds: Bounds): Promise<BoundedRun> {
  const child = spawn(process.execPath, [`--max-old-space-size=${bounds.heapMb}`, "-r", EXIT_REPORT, script, ...args], {
    stdio: ["ignore", "pipe", "pipe", "pipe"],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let report = "";
  child.stdout!.on("data", (b: Buffer) => out.push(b));
  child.stderr!.on("data", (b: Buffer) => err.push(b));
  (child.stdio[3] as NodeJS.ReadableStream).on("data", (b: Buffer) => (report += b.toString()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, bounds.wallMs);
  return new Promise((done) => {
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      done({
        status,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        report: report ? exitReport(report) : null,
        timedOut,
      });
    });
  });
}

function exitReport(json: string): BoundedRun["report"] {
  const r = JSON.parse(json) as { maxRssKb: number; cpuMs: number };
  return { maxRssMb: Math.round(r.maxRssKb / 1024), cpuMs: r.cpuMs };
}

/** `f` over every item, at most `width` at once, results in the items' order. */
export async function inPool<T, R>(items: readonly T[], width: number, f: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await f(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}
