// The adapter's side of a debugged render: starts the worker thread, hands it commands (a message on the port,
// then the shared signal, which a stopped or running render looks at), and turns its reports into events. The
// render runs under the preview's limits: the interpreter's steps, output and memory, a heap cap on the thread,
// and a time limit on its running time (time stopped does not count), past which the thread is ended.
import { join } from "node:path";
import { MessageChannel, type MessagePort, Worker } from "node:worker_threads";
import type {
  BreakpointSpec,
  Command,
  ExceptionFilters,
  Query,
  RenderFailure,
  Report,
  StepKind,
  StopReason,
  WorkerStart,
} from "./protocol";

/** The preview's limits: a render helper's heap (RENDER_MEMORY_MB) and render time (realEngineTimeoutMs's default). */
export const DEBUG_MEMORY_MB = 1024;
export const DEBUG_TIMEOUT_MS = 5000;

export interface RenderThreadEvents {
  stopped(reason: StopReason, text?: string): void;
  output(category: "console" | "stdout" | "stderr", text: string): void;
  /** The render ended: its output, and the engine's error if it threw. */
  done(output: string, error: RenderFailure | null): void;
  /** The thread was ended by a limit or failed: why, in words. */
  failed(message: string): void;
}

export type RenderThreadStart = Omit<WorkerStart, "signal" | "port">;

/** dist/debugWorker.js next to the bundle; from source (tests), worker.ts through tsx. */
function startWorker(data: WorkerStart, transfer: MessagePort[]): Worker {
  const options = { workerData: data, transferList: transfer, resourceLimits: { maxOldGenerationSizeMb: DEBUG_MEMORY_MB } };
  if (!__filename.endsWith(".ts")) return new Worker(join(__dirname, "debugWorker.js"), options);
  const file = JSON.stringify(join(__dirname, "worker.ts"));
  return new Worker(`require("tsx/cjs/api").register(); require(${file});`, { ...options, eval: true });
}

export class RenderThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private ended = false;
  /** Running time used so far, and since when it runs (null while stopped). */
  private used = 0;
  private runningSince: number | null = Date.now();
  private watchdog: NodeJS.Timeout | null = null;

  constructor(
    start: RenderThreadStart,
    private readonly events: RenderThreadEvents,
    private readonly timeoutMs = DEBUG_TIMEOUT_MS,
  ) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = startWorker({ ...start, signal: this.signal.buffer as SharedArrayBuffer, port: port2 }, [port2]);
    this.worker.on("message", (r: Report) => this.onReport(r));
    this.worker.on("error", (e: Error & { code?: string }) =>
      this.fail(
        e.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? `this template exhausted the render memory limit (${DEBUG_MEMORY_MB} MB); its render was stopped`
          : `the render failed: ${e.message}`,
      ),
    );
    this.worker.on("exit", () => this.fail("the render's thread ended before the render did"));
    this.arm();
  }

  /** Asks a stopped render; rejects while it runs. */
  query(query: Query): Promise<unknown> {
    if (this.ended) return Promise.reject(new Error("the render has ended"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.send({ type: "query", id, query });
    });
  }

  resume(how: StepKind): void {
    this.runningSince = Date.now();
    this.arm();
    this.send({ type: "resume", how });
  }

  pause(): void {
    this.send({ type: "pause" });
  }

  setBreakpoints(breakpoints: BreakpointSpec[]): void {
    this.send({ type: "breakpoints", breakpoints });
  }

  setExceptions(filters: ExceptionFilters): void {
    this.send({ type: "exceptions", filters });
  }

  /** Ends the render now (disconnect). */
  stop(): void {
    this.end();
    void this.worker.terminate();
  }

  private send(c: Command): void {
    if (this.ended) return;
    this.port.postMessage(c);
    Atomics.store(this.signal, 0, 1);
    Atomics.notify(this.signal, 0);
  }

  private onReport(r: Report): void {
    switch (r.type) {
      case "stopped":
        this.disarm();
        this.events.stopped(r.reason, r.text);
        return;
      case "output":
        this.events.output(r.category, r.text);
        return;
      case "answer": {
        const w = this.waiting.get(r.id);
        this.waiting.delete(r.id);
        if (r.error !== undefined) w?.reject(new Error(r.error));
        else w?.resolve(r.body);
        return;
      }
      case "done":
        if (this.ended) return;
        this.end();
        this.events.done(r.output, r.error);
        return;
    }
  }

  /** The time limit counts running time only: armed while the render runs, with what is left of it. */
  private arm(): void {
    this.disarm();
    const left = Math.max(0, this.timeoutMs - this.used);
    this.watchdog = setTimeout(() => {
      this.fail(`this template ran past the render time limit (${this.timeoutMs / 1000} s of running); its render was stopped`);
      void this.worker.terminate();
    }, left);
  }

  private disarm(): void {
    if (this.watchdog !== null) clearTimeout(this.watchdog);
    this.watchdog = null;
    if (this.runningSince !== null) this.used += Date.now() - this.runningSince;
    this.runningSince = null;
  }

  private fail(message: string): void {
    if (this.ended) return;
    this.end();
    this.events.failed(message);
  }

  private end(): void {
    this.ended = true;
    this.disarm();
    this.port.close();
    for (const w of this.waiting.values()) w.reject(new Error("the render has ended"));
    this.waiting.clear();
  }
}
