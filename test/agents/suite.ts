// One agent client's end-to-end runs: for each scenario, a fresh endpoint on the demo models at its --context, a
// scratch home and a working folder holding PROBE, the client run to its end, then one report line (verdict, time,
// exit, the endpoint's answers on the client's route) with the client's answer and the endpoint's log lines.
// The demo model drives the agent loop (native/endpoint/chat/agentDemo.ts): its first answer calls the client's shell or
// listing tool with `ls`, its second quotes the tool's result, so an answer that names PROBE proves the tool ran.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ClientRun } from "./client";
import { serve } from "./endpoint";
import { describeCounts } from "./requests";

/** The file the tool round trip must find: `ls` ran in the working folder and the answer quotes its output. */
export const PROBE = "cts-agent-probe.txt";

/** Far above a run on two cores (a prefill of ~55k tokens, then one mostly cached), below CI's 90 minutes. */
export const RUN_TIMEOUT_MS = 25 * 60_000;

export interface Scenario<R extends ClientRun> {
  context: number;
  expect: string;
  /** Runs the client against the endpoint at `url`, with `home` as its home and `workdir` (holding PROBE) as its cwd. */
  run(url: string, home: string, workdir: string): Promise<R>;
  /** What is wrong with the run, or null; `requests` are the endpoint's answers on the route by status. */
  check(run: R, requests: Map<string, number>): string | null;
  /** The client's final answer, or what it said instead, for the report. */
  answer(run: R): string;
  /** A known fault of the client itself in a failed run (then it is tried once more), or null. */
  clientFault?(run: R): string | null;
}

/** Runs the scenarios one after another and exits 0 when every one passed. */
export function runSuite<R extends ClientRun>(name: string, route: string, scenarios: Scenario<R>[]): void {
  main(name, route, scenarios).then(
    (failures) => process.exit(failures ? 1 : 0),
    (e: unknown) => {
      console.error(`[${name}] ${e instanceof Error ? e.stack : String(e)}`);
      process.exit(1);
    },
  );
}

async function main<R extends ClientRun>(name: string, route: string, scenarios: Scenario<R>[]): Promise<number> {
  const scratch = mkdtempSync(join(tmpdir(), `cts-${name}-`));
  let failures = 0;
  try {
    for (const s of scenarios) {
      const first = await attempt(name, route, s, scratch);
      const fault = first.problem ? s.clientFault?.(first.run) : null;
      if (fault) console.log(`[${name}]   a fault of the client's own, not the endpoint's (${fault}): once more`);
      const problem = fault ? (await attempt(name, route, s, scratch)).problem : first.problem;
      if (problem) failures++;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return failures;
}

/** One run of a scenario on a fresh endpoint, reported. */
async function attempt<R extends ClientRun>(
  name: string,
  route: string,
  s: Scenario<R>,
  scratch: string,
): Promise<{ problem: string | null; run: R }> {
  const started = Date.now();
  const home = mkdtempSync(join(scratch, `ctx-${s.context}-`));
  const workdir = join(home, "work");
  mkdirSync(workdir);
  writeFileSync(join(workdir, PROBE), "");
  const endpoint = await serve(s.context);
  let run: R;
  let requests: Map<string, number>;
  let cpu: number | undefined;
  try {
    run = await s.run(endpoint.url, home, workdir);
    requests = await endpoint.requests(route);
    cpu = endpoint.cpuSeconds();
  } finally {
    await endpoint.stop();
  }
  const problem = s.check(run, requests);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `[${name}] --context ${s.context} ${s.expect}: ${problem ? "FAIL" : "ok"} in ${seconds} s (exit ${run.exitCode}, ${route} ${describeCounts(requests)}${cpu === undefined ? "" : `, endpoint CPU ${cpu.toFixed(1)} s`})`,
  );
  console.log(`[${name}]   answer: ${JSON.stringify(s.answer(run).slice(0, 200))}`);
  for (const line of endpoint.log(route)) console.log(`[${name}]   endpoint: ${line}`);
  if (problem) console.log(`[${name}]   ${problem}`);
  return { problem, run };
}

/** A failure's detail: the end of what the client printed, where its error is. */
export const tail = (run: ClientRun) => (run.stderr.trim() || run.stdout.trim()).slice(-600);
