// Runs the rendering analyses in a separate Node process (analysisProcess.ts) with a heap limit and a time
// limit per request, so that no template can take the language server down or keep it busy: a request past
// its time is stopped by killing the process, a heap exhausted or a V8 fatal error ends only that process,
// and the next request starts a fresh one; the failure carries where the template's render was then
// (server/src/progressPipe). The server keeps one per document (analysisSlots.ts). Requests run one at a time; a newer request with the same key
// (the same document and analysis) replaces the one waiting, so a burst of edits checks only the last text.
import { fork, type ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import type { Span } from "../document";
import { ReportedProgress } from "../progressPipe";
import { PROGRESS_FD, type AnalysisReply, type AnalysisRequest } from "./analysisProtocol";

export interface AnalysisLimits {
  /** Wall time one request may take. */
  timeMs: number;
  /** The analysis process's V8 heap (--max-old-space-size). */
  memoryMb: number;
}

export interface AnalysisFailure {
  /** time, memory: a limit stopped it; crash: the process ended on its own; error: the analysis threw. */
  limit: "time" | "memory" | "crash" | "error";
  /** Completes "this template …". */
  message: string;
  /** Where the render of the document was when a limit or the process's end stopped it: offsets into its text. */
  at?: Span;
}

export type AnalysisOutcome = { ok: true; value: unknown } | { ok: false; failure: AnalysisFailure };

interface Job {
  key: string;
  request: AnalysisRequest;
  resolve(outcome: AnalysisOutcome | null): void;
}

interface Running {
  id: number;
  job: Job;
  timer: NodeJS.Timeout;
  process: Started;
}

interface Started {
  child: ChildProcess;
  memoryMb: number;
  /** The end of its stderr, where V8 says why it aborted. */
  stderr: string;
  progress: ReportedProgress;
}

// V8's last words when it aborts: the heap limit, or a value larger than it can allocate at all.
const HEAP_EXHAUSTED = /heap out of memory|Reached heap limit|Fatal process out of memory/;
const keepEnds = (s: string): string => (s.length <= 8192 ? s : `${s.slice(0, 4096)}\n…\n${s.slice(-4096)}`);
const INVALID_SIZE = /invalid (size|array length|table size)/i;

export class AnalysisWorker {
  private process: Started | null = null;
  private running: Running | null = null;
  private readonly queue: Job[] = [];
  private nextId = 1;

  constructor(
    /** The analysis process's script: dist/analysisWorker.js. */
    private readonly script: string,
    private readonly limits: () => AnalysisLimits,
    private readonly log: (line: string) => void,
  ) {}

  /** The analysis's result or failure; null when a newer request with the same key replaced it first. */
  run(key: string, request: AnalysisRequest): Promise<AnalysisOutcome | null> {
    return new Promise((resolve) => {
      const i = this.queue.findIndex((j) => j.key === key);
      if (i >= 0) this.queue.splice(i, 1)[0].resolve(null);
      this.queue.push({ key, request, resolve });
      this.pump();
    });
  }

  /** Whether a request is running or waiting. */
  get busy(): boolean {
    return this.running !== null || this.queue.length > 0;
  }

  dispose(): void {
    for (const job of this.queue.splice(0)) job.resolve(null);
    if (this.running) this.finish(null);
    this.stop();
  }

  private pump(): void {
    if (this.running || this.queue.length === 0) return;
    const job = this.queue.shift()!;
    const { timeMs, memoryMb } = this.limits();
    if (this.process && this.process.memoryMb !== memoryMb) this.stop();
    const started = (this.process ??= this.start(memoryMb));
    const id = this.nextId++;
    const timer = setTimeout(() => {
      // stopped first: finishing starts the next request, which must not go to the process about to be killed
      this.stop();
      const failure: AnalysisFailure = { limit: "time", message: `ran past the analysis time limit (${seconds(timeMs)})` };
      this.finish({ ok: false, failure: located(failure, started.progress.of(id)) });
    }, timeMs);
    this.running = { id, job, timer, process: started };
    started.child.send({ id, request: job.request });
  }

  private start(memoryMb: number): Started {
    // In VS Code, process.execPath is Electron, which runs as plain Node with ELECTRON_RUN_AS_NODE.
    const child = fork(this.script, [], {
      execArgv: [`--max-old-space-size=${memoryMb}`],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
      stdio: ["ignore", "ignore", "pipe", "ipc", "pipe"],
    });
    const progress = new ReportedProgress(child.stdio[PROGRESS_FD] as Readable);
    const started: Started = { child, memoryMb, stderr: "", progress };
    // V8's reason comes first and its stack traces after it, so the head is kept too, not only the end.
    child.stderr!.on("data", (d: Buffer) => (started.stderr = keepEnds(started.stderr + d.toString())));
    child.on("message", (r: AnalysisReply) => {
      if (this.running?.id !== r.id) return;
      this.finish(
        r.ok ? { ok: true, value: r.value } : { ok: false, failure: { limit: "error", message: `made the analysis fail: ${r.error}` } },
      );
    });
    // 'close' comes after stderr is read to its end, so V8's message is there.
    child.on("close", (code, signal) => this.ended(started, code, signal));
    child.on("error", (e) => this.ended(started, null, null, e.message));
    this.log(`analysis process started (pid ${child.pid}, heap limit ${memoryMb} MB)`);
    return started;
  }

  private ended(started: Started, code: number | null, signal: NodeJS.Signals | null, error?: string): void {
    if (this.process === started) this.process = null;
    if (this.running?.process !== started) return;
    const failure = located(whyEnded(started, code, signal, error), started.progress.of(this.running.id));
    this.log(`analysis process ${started.child.pid} ended (${signal ?? error ?? `exit code ${code}`}): this template ${failure.message}`);
    this.finish({ ok: false, failure });
  }

  private finish(outcome: AnalysisOutcome | null): void {
    const r = this.running!;
    clearTimeout(r.timer);
    this.running = null;
    r.job.resolve(outcome);
    this.pump();
  }

  private stop(): void {
    this.process?.child.kill("SIGKILL");
    this.process = null;
  }
}

function whyEnded(started: Started, code: number | null, signal: NodeJS.Signals | null, error?: string): AnalysisFailure {
  if (HEAP_EXHAUSTED.test(started.stderr))
    return { limit: "memory", message: `exhausted the analysis memory limit (${started.memoryMb} MB)` };
  if (INVALID_SIZE.test(started.stderr)) return { limit: "memory", message: "built a value larger than the JavaScript engine can hold" };
  const how = error ?? (signal ? `signal ${signal}` : `exit code ${code}`);
  return { limit: "crash", message: `ended the analysis process (${how})` };
}

const located = (failure: AnalysisFailure, at: Span | null): AnalysisFailure => (at ? { ...failure, at } : failure);

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(1))} s`;
