// The template guard runs in a process of its own (worker.ts), with a bounded heap: a render of ours that
// exhausts it (a value our limits do not bound) aborts that process, not the one that serves requests. A
// worker thread's resourceLimits would not do: V8 aborts the whole process on some allocations past a
// thread's limit (nodejs/node#47224). The check that was running is refused (the guard could not vouch for
// the template), and the next check starts a fresh process. Checks run one at a time, in call order; the
// guard's process keeps nothing alive while it is idle.
import { fork, type ChildProcess, type ForkOptions } from "node:child_process";
import { join } from "node:path";
import type { GuardAnswer, GuardCall } from "./protocol";
import { checkFailed } from "./refusals";
import { servedTemplates } from "./servedTemplates";
import type { Refusal, TemplateGuard } from "./types";

// the corpus's renders take a few MiB; a render near the output limit can take hundreds (the llamacpp dialect
// keeps a string repeated n times as n parts: `'x' * 1000000` printed twice takes about 500 MiB); a value bomb
// stops here, its process about 1 GB
export const GUARD_HEAP_MIB = 1024;
// no request of ours takes the guard near this; a render that does (a value bomb our limits let through,
// walked part by part) is refused rather than leaving the request, and every one queued behind it, hanging
export const GUARD_TIME_LIMIT_MS = 60_000;

/** Bundled: dist/templateGuardWorker.js, next to dist/endpoint.js and dist/cli.js (esbuild.mjs). */
function start(heapMiB: number): ChildProcess {
  const heap = `--max-old-space-size=${heapMiB}`;
  // stderr too: what a V8 abort prints there is the refusal's reason, given in words
  const options: ForkOptions = { stdio: ["ignore", "ignore", "ignore", "ipc"], serialization: "advanced" };
  if (!__filename.endsWith(".ts")) return fork(join(__dirname, "templateGuardWorker.js"), [], { ...options, execArgv: [heap] });
  // run from source (tests, benchmarks): through tsx, as its parent
  return fork(join(__dirname, "worker.ts"), [], { ...options, execArgv: ["--import", "tsx", heap] });
}

interface Job {
  call: GuardCall;
  /** What the check renders, for a refusal's message. */
  what: string | null;
  resolve: (verdict: Refusal | null) => void;
}

const verdictOf = (a: GuardAnswer, what: string | null): Refusal | null => ("failed" in a ? checkFailed(a.failed, what) : a.refusal);

export class GuardProcess {
  private child: ChildProcess | null = null;
  private readonly queue: Job[] = [];
  private current: Job | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Processes started so far (a restart after a failure is one more). */
  started = 0;

  constructor(
    readonly heapMiB = GUARD_HEAP_MIB,
    readonly timeLimitMs = GUARD_TIME_LIMIT_MS,
  ) {}

  /** The check's verdict: null when the guard vouches for it. */
  check(call: GuardCall, what: string | null): Promise<Refusal | null> {
    return new Promise((resolve) => {
      this.queue.push({ call, what, resolve });
      this.next();
    });
  }

  private next(): void {
    if (this.current) return;
    const job = this.queue.shift();
    if (!job) {
      if (this.child) keepAlive(this.child, false);
      return;
    }
    this.current = job;
    const child = this.process();
    keepAlive(child, true);
    child.send(job.call);
    this.timer = setTimeout(() => this.lost(child, `it took longer than ${this.timeLimitMs / 1000} s`), this.timeLimitMs);
  }

  private finish(verdict: Refusal | null): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const job = this.current!;
    this.current = null;
    job.resolve(verdict);
    this.next();
  }

  private process(): ChildProcess {
    if (this.child) return this.child;
    const child = start(this.heapMiB);
    this.started++;
    child.on("message", (a: GuardAnswer) => this.finish(verdictOf(a, this.current!.what)));
    child.on("error", (e) => this.lost(child, `the guard's process failed: ${e.message}`));
    child.on("exit", (code, signal) => this.lost(child, exitReason(code, signal, this.heapMiB)));
    this.child = child;
    return child;
  }

  /** The process is gone: the check it was running is refused; the next starts another process. */
  private lost(child: ChildProcess, why: string): void {
    if (this.child !== child) return;
    this.child = null;
    child.kill();
    if (this.current) this.finish(checkFailed(why, this.current.what));
  }
}

/** While it checks, the guard's process keeps the parent alive; idle, it does not. */
function keepAlive(child: ChildProcess, on: boolean): void {
  const channel = child.channel as { ref(): void; unref(): void } | undefined;
  if (on) {
    child.ref();
    channel?.ref();
  } else {
    child.unref();
    channel?.unref();
  }
}

function exitReason(code: number | null, signal: NodeJS.Signals | null, heapMiB: number): string {
  // V8 reports a heap out of memory on stderr and aborts
  if (signal === "SIGABRT" || code === 134) return `it exhausted the guard's memory (${heapMiB} MiB) or aborted it`;
  return `the guard's process ended (${signal ?? `exit code ${code}`})`;
}

const shared = new GuardProcess();

/** The guard the endpoint gives the engine: every check in the one shared guard process. */
export const processGuard: TemplateGuard = {
  checkTemplates: ({ override, model, tokens }) =>
    shared.check({ op: "templates", served: servedTemplates(override, model), tokens }, null),
  checkRequest: ({ override, model, tokens }, inputsJson) =>
    shared.check({ op: "request", served: servedTemplates(override, model), tokens, inputsJson }, "the request"),
  checkRender: (source, json) => shared.check({ op: "render", source, json }, "the template variables"),
};
