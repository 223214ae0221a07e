// A long-lived helper process that renders one request per line of JSON on stdin and answers one line
// of JSON on stdout. Its first line says whether it can work at all ({"ready": true, "version"} or
// {"ready": false, "reason"}). Each request has a time limit: past it the process is killed (a template
// can loop for as long as it likes inside a real engine) and the next request starts a fresh one; a request
// may bring a limit of its own (a test case that waits on a model). Only the newest waiting request is kept:
// while one runs, a newer one replaces the one queued behind it.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { PROGRESS_FD } from "./helperProgress";

export type LineResult =
  | { ok: true; reply: Record<string, unknown> }
  /** `unavailable`: the helper cannot run here at all (no interpreter, no module); it is not retried. */
  /** `stderr`: the end of what a helper that exited wrote there (where V8 says it ran out of heap). */
  | { ok: false; unavailable: boolean; reason: string; stderr?: string };

export interface LineProcessSpec {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Opens one more pipe (PROGRESS_FD in the helper), and hands over its end here at each start of the helper. */
  progressPipe?: (pipe: Readable) => void;
}

interface Running {
  child: ChildProcess;
  hello: Promise<LineResult>;
  ask(payload: object, timeoutMs: number): Promise<LineResult>;
}

export class LineProcess {
  private running: Running | null = null;
  private unavailable: string | null = null;
  private busy = false;
  private queued: { payload: object; timeoutMs: number; resolve: (r: LineResult | null) => void } | null = null;
  /** The helper's `version` from its first line, once it has started. */
  version: string | null = null;

  constructor(private readonly spec: LineProcessSpec) {}

  /** The helper's reply, a failure, or null when a newer request replaced this one before it ran. */
  request(payload: object, timeoutMs = this.spec.timeoutMs): Promise<LineResult | null> {
    return new Promise((resolve) => {
      this.queued?.resolve(null);
      this.queued = { payload, timeoutMs, resolve };
      void this.pump();
    });
  }

  dispose(): void {
    this.queued?.resolve(null);
    this.queued = null;
    this.stop();
  }

  private async pump(): Promise<void> {
    if (this.busy || !this.queued) return;
    const job = this.queued;
    this.queued = null;
    this.busy = true;
    try {
      job.resolve(await this.run(job.payload, job.timeoutMs));
    } finally {
      this.busy = false;
      void this.pump();
    }
  }

  private async run(payload: object, timeoutMs: number): Promise<LineResult> {
    if (this.unavailable !== null) return { ok: false, unavailable: true, reason: this.unavailable };
    const p = (this.running ??= this.start());
    const hello = await p.hello;
    if (!hello.ok) {
      this.stop();
      if (hello.unavailable) this.unavailable = hello.reason;
      return hello;
    }
    const r = await p.ask(payload, timeoutMs);
    if (!r.ok) this.stop();
    return r;
  }

  private stop(): void {
    this.running?.child.kill("SIGKILL");
    this.running = null;
  }

  private start(): Running {
    const { command, args, env, timeoutMs, progressPipe } = this.spec;
    const child = spawn(command, args, { env, stdio: ["pipe", "pipe", "pipe", ...(progressPipe ? ["pipe" as const] : [])] });
    progressPipe?.(child.stdio[PROGRESS_FD] as Readable);
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (s: string) => (stderr = (stderr + s).slice(-8000)));
    child.stdin!.on("error", () => {}); // a dead helper is reported through 'exit'
    let waiter: ((r: LineResult) => void) | null = null;
    const settle = (r: LineResult) => {
      const w = waiter;
      waiter = null;
      w?.(r);
    };
    createInterface({ input: child.stdout! }).on("line", (line) => {
      let reply: unknown;
      try {
        reply = JSON.parse(line);
      } catch {
        return settle({ ok: false, unavailable: false, reason: `${command} wrote something that is not JSON: ${line.slice(0, 200)}` });
      }
      settle({ ok: true, reply: reply as Record<string, unknown> });
    });
    let exited: LineResult | null = null;
    child.on("error", (e: NodeJS.ErrnoException) => {
      exited = { ok: false, unavailable: true, reason: e.code === "ENOENT" ? `${command} was not found` : `${command}: ${e.message}` };
      settle(exited);
    });
    child.on("exit", (code, signal) => {
      const why = stderr.trim() ? `: ${stderr.trim().split("\n").slice(-3).join(" ")}` : "";
      exited ??= { ok: false, unavailable: false, reason: `${command} exited (${signal ?? `code ${code}`})${why}`, stderr };
      settle(exited);
    });
    const next = (limitMs: number, what: string): Promise<LineResult> =>
      new Promise((resolve) => {
        if (exited) return resolve(exited);
        const timer = setTimeout(
          () => settle({ ok: false, unavailable: false, reason: `no answer within ${limitMs / 1000} s ${what}; stopped` }),
          limitMs,
        );
        waiter = (r) => {
          clearTimeout(timer);
          resolve(r);
        };
      });
    // starting (an interpreter importing a library) may take longer than one render
    const hello = next(timeoutMs * 2, "after starting").then((r): LineResult => {
      if (!r.ok || r.reply.ready === true) {
        if (r.ok && typeof r.reply.version === "string") this.version = r.reply.version;
        return r;
      }
      return { ok: false, unavailable: true, reason: String(r.reply.reason ?? "the helper cannot run") };
    });
    return {
      child,
      hello,
      ask: (payload, limitMs) => {
        const answer = next(limitMs, "from the engine");
        child.stdin!.write(JSON.stringify(payload) + "\n");
        return answer;
      },
    };
  }
}
