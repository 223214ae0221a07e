// The template guard runs in a process of its own (worker.ts), with a bounded heap: a render of ours that
// exhausts it (a value our limits do not bound) aborts that process, not the one that serves requests. A
// worker thread's resourceLimits would not do: V8 aborts the whole process on some allocations past a
// thread's limit (nodejs/node#47224). The check that was running is refused (the guard could not vouch for
// the template), and the next check starts a fresh process. Checks run one at a time, in call order; the
// guard's process keeps nothing alive while it is idle.
import { fork, type ChildProcess, type ForkOptions } from "node:child_process";
import { join } from "node:path";
import { EngineError, TemplateLimitError, TemplateRefusedError } from "../errors";
import type { GuardAnswer, GuardCall, Tokens } from "./protocol";
import { checkFailed } from "./refusals";
import type { ServedTemplates } from "./servedTemplates";

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
  resolve: () => void;
  reject: (e: Error) => void;
}

function refusalOf(a: Exclude<GuardAnswer, { ok: true }>, what: string | null): Error {
  switch (a.kind) {
    case "limit":
      return new TemplateLimitError(a.limit, a.line, a.column, a.message);
    case "refused":
      return new TemplateRefusedError(a.line, a.column, a.message);
    case "engine":
      return new EngineError(a.code, a.message);
    case "failed":
      return checkFailed(a.message, what);
  }
}

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

  check(call: GuardCall, what: string | null): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ call, what, resolve, reject });
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

  private finish(outcome: Error | null): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const job = this.current!;
    this.current = null;
    if (outcome) job.reject(outcome);
    else job.resolve();
    this.next();
  }

  private process(): ChildProcess {
    if (this.child) return this.child;
    const child = start(this.heapMiB);
    this.started++;
    child.on("message", (a: GuardAnswer) => this.finish(a.ok ? null : refusalOf(a, this.current!.what)));
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

const guard = new GuardProcess();

/** The checks of these templates that hold for every request (TemplateGuard.of). */
export function checkTemplates(served: ServedTemplates, tokens: Tokens): Promise<void> {
  return guard.check({ op: "templates", served, tokens }, null);
}

/** The renders llama.cpp makes for one request (TemplateGuard.checkRequest), as template_inputs gives them. */
export function checkRequest(served: ServedTemplates, tokens: Tokens, inputsJson: string): Promise<void> {
  return guard.check({ op: "request", served, tokens, inputsJson }, "the request");
}

/** renderTemplate's check (checkRender). */
export function checkRender(source: string, json: string): Promise<void> {
  return guard.check({ op: "render", source, json }, "the template variables");
}
