// The bundled endpoint's lifecycle, without VS Code: one child process (dist/endpoint.js, never inside
// the extension host), its stdout events (listening, ready, error, template), /health polled for the load
// progress, restarts with exponential backoff when it dies, and a stop that waits for the exit.
//
// No orphan: the child gets --exit-on-stdin-close and a pipe as stdin, so it exits when this process goes
// away however it goes (even SIGKILL closes the pipe); stop() sends SIGTERM and, past a time limit, SIGKILL.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { TemplateEvent } from "../../../native/endpoint";

export interface LaunchSpec {
  command: string;
  /** The entry script and `chat-template serve` flags. */
  args: string[];
  env?: NodeJS.ProcessEnv;
}

export interface ReadyInfo {
  url: string;
  model: string;
  demo: boolean;
  backend: string;
  contextSize: number;
  draft: string | null;
  pid: number;
}

export type EndpointState =
  | { kind: "stopped" }
  | { kind: "starting" }
  | { kind: "loading"; url: string; model: string; progress: number }
  | ({ kind: "ready" } & ReadyInfo)
  | { kind: "restarting"; attempt: number; delayMs: number; reason: string }
  | { kind: "failed"; message: string };

/** The endpoint's `template` event, as it prints it. */
export type { TemplateEvent };

export interface Backoff {
  initialMs: number;
  maxMs: number;
  /** Restarts in a row before giving up. */
  maxRestarts: number;
  /** A run that stayed ready this long resets the count. */
  stableMs: number;
}

export interface ManagerOptions {
  /** Lines for the output channel: the child's stderr and what the manager does. */
  log(line: string): void;
  backoff?: Partial<Backoff>;
  healthPollMs?: number;
  stopTimeoutMs?: number;
}

const BACKOFF: Backoff = { initialMs: 1000, maxMs: 30_000, maxRestarts: 5, stableMs: 60_000 };

/** The delay before restart number `attempt` (1-based): doubling from initialMs, at most maxMs. */
export function backoffDelay(b: Backoff, attempt: number): number {
  return Math.min(b.maxMs, b.initialMs * 2 ** (attempt - 1));
}

interface Run {
  child: ChildProcess;
  stopping: boolean;
  /** It bound its port: the arguments and files were good, so a later death is worth a restart. */
  listening: boolean;
  readyAt: number | null;
  exited: Promise<void>;
  /** The last lines of its stderr, for the message when it dies. */
  tail: string[];
  poll?: NodeJS.Timeout;
}

type Listener<T> = (value: T) => void;

export class EndpointManager {
  private current: EndpointState = { kind: "stopped" };
  private run: Run | null = null;
  private spec: LaunchSpec | null = null;
  private attempts = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly stateListeners = new Set<Listener<EndpointState>>();
  private readonly templateListeners = new Set<Listener<TemplateEvent>>();
  private readonly backoff: Backoff;
  /** The name given to setMirrorOf since the last start; restarts are told it again. */
  private mirrorOf: string | null = null;

  constructor(private readonly o: ManagerOptions) {
    this.backoff = { ...BACKOFF, ...o.backoff };
  }

  get state(): EndpointState {
    return this.current;
  }

  /** The running child's pid (the endpoint's own), or null. */
  get pid(): number | null {
    return this.run?.child.pid ?? null;
  }

  onState(listener: Listener<EndpointState>): { dispose(): void } {
    this.stateListeners.add(listener);
    return { dispose: () => this.stateListeners.delete(listener) };
  }

  onTemplate(listener: Listener<TemplateEvent>): { dispose(): void } {
    this.templateListeners.add(listener);
    return { dispose: () => this.templateListeners.delete(listener) };
  }

  /** Starts (unless already running) and resolves once the model is ready, or loading failed, or it was stopped. */
  start(spec: LaunchSpec): Promise<EndpointState> {
    if (this.current.kind === "stopped" || this.current.kind === "failed") {
      this.spec = spec;
      this.attempts = 0;
      this.mirrorOf = null;
      this.launch();
    }
    return this.settled();
  }

  /**
   * Renames the document the served template file mirrors (the editor switched to another): the running
   * endpoint is told on its stdin, and so is every restart, whose arguments still name the first one.
   */
  setMirrorOf(name: string): void {
    this.mirrorOf = name;
    if (this.run) this.tell(this.run);
  }

  async stop(): Promise<void> {
    clearTimeout(this.restartTimer);
    const run = this.run;
    if (run) {
      run.stopping = true;
      run.child.kill("SIGTERM");
      const killer = setTimeout(() => run.child.kill("SIGKILL"), this.o.stopTimeoutMs ?? 10_000);
      await run.exited;
      clearTimeout(killer);
    }
    this.set({ kind: "stopped" });
  }

  /** Resolves at the next ready, failed or stopped state (at once when already there). */
  settled(): Promise<EndpointState> {
    const done = (s: EndpointState) => s.kind === "ready" || s.kind === "failed" || s.kind === "stopped";
    if (done(this.current)) return Promise.resolve(this.current);
    return new Promise((resolve) => {
      const sub = this.onState((s) => {
        if (!done(s)) return;
        sub.dispose();
        resolve(s);
      });
    });
  }

  private set(s: EndpointState): void {
    this.current = s;
    for (const l of [...this.stateListeners]) l(s);
  }

  private launch(): void {
    const spec = this.spec!;
    this.set({ kind: "starting" });
    const child = spawn(spec.command, [...spec.args, "--exit-on-stdin-close"], { env: spec.env, stdio: ["pipe", "pipe", "pipe"] });
    const run: Run = {
      child,
      stopping: false,
      listening: false,
      readyAt: null,
      tail: [],
      exited: new Promise((r) => child.once("close", () => r())),
    };
    this.run = run;
    child.stdin!.on("error", () => {}); // EPIPE once the child is gone; its exit is handled below
    if (this.mirrorOf !== null) this.tell(run);
    createInterface({ input: child.stdout! }).on("line", (line) => this.event(run, line));
    createInterface({ input: child.stderr! }).on("line", (line) => {
      if (line.trim()) run.tail = [...run.tail.slice(-2), line.trim()];
      this.o.log(line);
    });
    let spawnError: Error | null = null;
    child.once("error", (e) => (spawnError = e));
    child.once("close", (code, signal) => {
      if (this.run === run) this.run = null;
      clearInterval(run.poll);
      if (run.stopping) return;
      if (spawnError) return this.set({ kind: "failed", message: `cannot start ${spec.command}: ${spawnError.message}` });
      const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
      // before binding it refused its arguments or files (a usage error, a missing model): the same again would too
      if (!run.listening) return this.set({ kind: "failed", message: `the endpoint ${how}: ${run.tail.join(" / ") || "no message"}` });
      this.crashed(run, how);
    });
  }

  private tell(run: Run): void {
    run.child.stdin!.write(`${JSON.stringify({ chatTemplateMirrorOf: this.mirrorOf })}\n`);
  }

  private event(run: Run, line: string): void {
    if (this.run !== run) return;
    let e: Record<string, unknown>;
    try {
      e = JSON.parse(line);
    } catch {
      return this.o.log(`endpoint stdout: ${line}`);
    }
    if (e.event === "listening") {
      run.listening = true;
      this.set({ kind: "loading", url: String(e.url), model: String(e.model), progress: 0 });
      this.pollHealth(run, String(e.url));
    } else if (e.event === "ready") {
      run.readyAt = Date.now();
      clearInterval(run.poll);
      const info = {
        url: String(e.url),
        model: String(e.model),
        demo: e.demo === true,
        backend: String(e.backend),
        contextSize: Number(e.contextSize),
      };
      this.set({ kind: "ready", ...info, draft: typeof e.draft === "string" ? e.draft : null, pid: run.child.pid! });
    } else if (e.event === "error") {
      this.o.log(`the model failed to load: ${e.message}`);
      this.set({ kind: "failed", message: String(e.message) });
      run.stopping = true;
      run.child.kill("SIGTERM");
    } else if (e.event === "template") {
      for (const l of [...this.templateListeners]) l(e as unknown as TemplateEvent);
    } else if (e.event === "warning") {
      this.o.log(`warning: ${e.message}`);
    }
  }

  /** Load progress is only in /health (the process prints nothing while loading). */
  private pollHealth(run: Run, url: string): void {
    run.poll = setInterval(async () => {
      try {
        const body = (await (await fetch(`${url}/health`)).json()) as { status?: string; progress?: number };
        const s = this.current;
        if (this.run === run && s.kind === "loading" && body.status === "loading" && typeof body.progress === "number")
          this.set({ ...s, progress: body.progress });
      } catch {
        // the process is going away, or busy: the next poll or its exit tells
      }
    }, this.o.healthPollMs ?? 250);
  }

  private crashed(run: Run, how: string): void {
    if (run.readyAt !== null && Date.now() - run.readyAt >= this.backoff.stableMs) this.attempts = 0;
    this.attempts++;
    const reason = `the endpoint ${how}${run.tail.length ? ` (last log line: ${run.tail.at(-1)})` : ""}`;
    if (this.attempts > this.backoff.maxRestarts) {
      this.o.log(`${reason}; gave up after ${this.backoff.maxRestarts} restarts`);
      return this.set({ kind: "failed", message: `${reason}; gave up after ${this.backoff.maxRestarts} restarts in a row` });
    }
    const delayMs = backoffDelay(this.backoff, this.attempts);
    this.o.log(`${reason}; restarting in ${delayMs} ms (attempt ${this.attempts} of ${this.backoff.maxRestarts})`);
    this.set({ kind: "restarting", attempt: this.attempts, delayMs, reason });
    this.restartTimer = setTimeout(() => this.launch(), delayMs);
  }
}
