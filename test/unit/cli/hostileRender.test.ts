// The render half of issue 17's reliability suite: every hostile template of the catalogue (escapes, value
// bombs, nesting, size, llama.cpp's crashers, guard bypasses, other scanners' escapes) × every registered engine
// through `chat-template render` (dist/cli.js), in child processes capped at 1 GiB of heap. Each ends within 20 s
// of CPU time in a clear error (exit 3, one JSON line with a line and a column, no JS stack, no RangeError, no V8
// abort) or a bounded render, and no process holds more than 1 GB. Value bombs and large templates run one to a
// process; the quick categories run many to a process (cliBatch.cjs), where starting one each would cost most of
// the suite's time. Without the value bounds, the memory limit and the nesting limits, V8 aborts on the value
// bombs (2–3 GB), the deep templates overflow the stack and huge ranges run for minutes.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { before, describe, it } from "node:test";
import { registeredEngines } from "../../../server/src/dialects";
import { type BoundedRun, inPool, runBounded } from "../../helpers/boundedNode";
import { CLI } from "../../helpers/cli";
import { HOSTILE_TEMPLATES, peerEscapes, type HostileTemplate } from "../../helpers/hostileTemplates";
import { HANG_GUARD_MS } from "../../helpers/hangGuard";

const HEAP_MB = 1024;
// a process still going after this much wall-clock time hangs whatever the machine's load
// a hang guard, not a budget: CPU time (MAX_CPU_MS) is what a render is held to, and a loaded machine stretches wall time
const WALL_MS = HANG_GUARD_MS;
const MAX_CPU_MS = 20_000;
const MAX_RSS_MB = 1024;
const OUTPUT_LIMIT = 16 * 1024 * 1024;
const BATCH = resolve(__dirname, "../../helpers/cliBatch.cjs");
const ALL = [...HOSTILE_TEMPLATES, ...peerEscapes()];
const ENGINES = registeredEngines();
const heavy = (h: HostileTemplate) => h.category === "value bomb" || h.category === "size";

/** How one render ended; `maxRssMb` is its process's peak (shared by a batch). */
interface CaseRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stdoutLength: number;
  stderr: string;
  cpuMs: number | null;
  maxRssMb: number | null;
  timedOut: boolean;
}

const dir = mkdtempSync(join(tmpdir(), "hostile-render-"));
function renderArgs(h: HostileTemplate, i: number, engine: string): string[] {
  const template = join(dir, `${i}.jinja`);
  const context = join(dir, `${i}.json`);
  writeFileSync(template, h.template);
  const messages = [{ role: "user", content: h.trigger ?? "hi" }];
  writeFileSync(context, JSON.stringify({ messages, add_generation_prompt: true, bos_token: "<s>", eos_token: "</s>" }));
  return ["render", template, "--engine", engine, "--context", context];
}

const single = (r: BoundedRun): CaseRun => ({
  ...r,
  stdoutLength: r.stdout.length,
  cpuMs: r.report?.cpuMs ?? null,
  maxRssMb: r.report?.maxRssMb ?? null,
});

/** Many renders in one process: one result line each; those after a line that never came did not run. */
async function batch(commands: string[][]): Promise<CaseRun[]> {
  const file = join(dir, `batch-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(commands));
  const r = await runBounded(BATCH, [CLI, file], { heapMb: HEAP_MB, wallMs: WALL_MS });
  const lines = r.stdout.split("\n").filter(Boolean);
  return commands.map((_, i) => {
    if (i < lines.length) {
      const l = JSON.parse(lines[i]) as { status: number; stdout: string; stdoutLength: number; stderr: string; cpuMs: number };
      return { ...l, signal: null, maxRssMb: r.report?.maxRssMb ?? null, timedOut: false };
    }
    // the render that was running when the process ended, and those that never started
    const running = i === lines.length;
    return {
      status: running ? r.status : null,
      signal: running ? r.signal : null,
      stdout: "",
      stdoutLength: 0,
      stderr: running ? r.stderr : "not run: an earlier render in its process ended it",
      cpuMs: null,
      maxRssMb: null,
      timedOut: running && r.timedOut,
    };
  });
}

/** What went wrong with one render, or null where it ended as a clear error or a bounded render. */
function fault(h: HostileTemplate, engine: string, r: CaseRun): string | null {
  if (r.timedOut) return `hang: still running after ${WALL_MS} ms`;
  if (r.signal) return `crash: ${r.signal} ${r.stderr.slice(0, 300)}`;
  if (/RangeError|FATAL ERROR|internal error|\n\s+at /.test(r.stderr)) return `host error on stderr: ${r.stderr.slice(0, 300)}`;
  if (r.cpuMs === null || r.maxRssMb === null) return `no report of its end (exit ${r.status}): ${r.stderr.slice(0, 300)}`;
  if (r.cpuMs > MAX_CPU_MS) return `hang: ${r.cpuMs} ms of CPU`;
  if (r.maxRssMb > MAX_RSS_MB) return `held ${r.maxRssMb} MB`;
  if (r.status === 0) {
    if (r.stdoutLength > OUTPUT_LIMIT) return `printed ${r.stdoutLength} characters`;
    if (h.limitIn?.includes(engine)) return "rendered a value bomb this engine has every construct of";
    if (h.parseNesting) return "rendered nesting every parser refuses";
    if (h.category === "escape" && /uid=\d|<class '|<module '|PWNED-RCE\n/.test(r.stdout))
      return `an escape printed ${r.stdout.slice(0, 200)}`;
    return null;
  }
  if (r.status !== 3) return `exit ${r.status}: ${r.stderr.slice(0, 300)}`;
  let e: { error?: unknown; line?: unknown; column?: unknown; code?: unknown };
  try {
    e = JSON.parse(r.stderr);
  } catch {
    return `stderr is not one JSON line: ${r.stderr.slice(0, 300)}`;
  }
  if (typeof e.error !== "string" || typeof e.code !== "string") return `no message or code: ${r.stderr}`;
  if (!(Number(e.line) >= 1 && Number(e.column) >= 1)) return `no location: ${r.stderr}`;
  if (h.limitIn?.includes(engine) && !e.code.startsWith("limit/")) return `a value bomb ended in ${e.code}, not a limit: ${e.error}`;
  if (h.parseNesting && e.code !== "syntax/nesting") return `deep nesting ended in ${e.code}: ${e.error}`;
  return null;
}

describe("hostile templates through `chat-template render`, every engine, in capped processes", () => {
  const runs = new Map<HostileTemplate, Map<string, CaseRun>>();
  const record = (h: HostileTemplate, engine: string, r: CaseRun) => {
    if (!runs.has(h)) runs.set(h, new Map());
    runs.get(h)!.set(engine, r);
  };
  before(async () => {
    const cases = ALL.flatMap((h, i) => ENGINES.map((engine) => ({ h, engine, args: renderArgs(h, i, engine) })));
    const alone = cases.filter((c) => heavy(c.h));
    const together = ENGINES.map((engine) => cases.filter((c) => !heavy(c.h) && c.engine === engine));
    // the batches first: a pool of two, one batch per engine, then one process per heavy render
    const jobs: (() => Promise<void>)[] = [
      ...together.map(
        (group) => async () => (await batch(group.map((c) => c.args))).forEach((r, i) => record(group[i].h, group[i].engine, r)),
      ),
      ...alone.map((c) => async () => record(c.h, c.engine, single(await runBounded(CLI, c.args, { heapMb: HEAP_MB, wallMs: WALL_MS })))),
    ];
    await inPool(jobs, 2, (job) => job());
  });

  for (const h of ALL) {
    const name = `${h.category}: ${h.name}`;
    it(name, () => {
      const faults = ENGINES.flatMap((engine) => {
        const f = fault(h, engine, runs.get(h)!.get(engine)!);
        return f ? [`${engine}: ${f}`] : [];
      });
      assert.deepEqual(faults, []);
    });
  }

  it("counts: templates × engines, crashes, hangs, peak memory", (t) => {
    const all = [...runs.values()].flatMap((m) => [...m.values()]);
    const crashes = all.filter((r) => r.signal && !r.timedOut).length;
    const hangs = all.filter((r) => r.timedOut || (r.cpuMs ?? 0) > MAX_CPU_MS).length;
    const peak = Math.max(...all.map((r) => r.maxRssMb ?? 0));
    const most = Math.max(...all.map((r) => r.cpuMs ?? 0));
    const cpu = all.reduce((n, r) => n + (r.cpuMs ?? 0), 0);
    t.diagnostic(
      `${ALL.length} templates × ${ENGINES.length} engines = ${all.length} renders: ${crashes} crashes, ${hangs} hangs, ` +
        `peak RSS ${peak} MB, most CPU for one render ${most} ms, CPU of all renders ${Math.round(cpu / 1000)} s`,
    );
    assert.equal(all.length, ALL.length * ENGINES.length);
  });
});
