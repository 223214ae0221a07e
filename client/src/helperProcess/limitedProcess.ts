// Where the extension host runs the user's template: a Node helper process (a LineProcess) started with a capped
// V8 heap and a time limit per request, so that a template that exhausts either ends that process, never the
// extension host, and the caller gets an error that names the limit. The preview's dialect columns, "Test
// Template Against Model", the Test Explorer's cases and Compare Templates run their templates in these.
import { LineProcess } from "./lineProcess";

/** The heap of each helper that renders a template: a value bomb past it is an error, not a dead extension host. */
export const RENDER_MEMORY_MB = 1024;

export interface LimitedProcessOptions {
  /** How to start the helper: `node someWorker.js`, or `node --import tsx someWorker.ts` in tests; `args` follow the heap flag. */
  command: string;
  args: string[];
  timeoutMs: number;
  /** The helper's V8 heap (--max-old-space-size). */
  memoryMb: number;
}

export type LimitedResult = { ok: true; reply: Record<string, unknown> } | { ok: false; message: string };

const HEAP_EXHAUSTED = /heap out of memory|Reached heap limit|invalid (size|array length|table size)/i;

export class LimitedProcess {
  private readonly proc: LineProcess;

  constructor(private readonly o: LimitedProcessOptions) {
    this.proc = new LineProcess({
      command: o.command,
      args: [`--max-old-space-size=${o.memoryMb}`, ...o.args],
      // in VS Code, process.execPath is Electron, which runs as plain Node with ELECTRON_RUN_AS_NODE
      env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
      timeoutMs: o.timeoutMs,
    });
  }

  /** The helper's `version` from its first line, once it has started. */
  get version(): string | null {
    return this.proc.version;
  }

  /** The helper's reply, why it gave none, or null when a newer request replaced this one before it ran. */
  async request(payload: object, timeoutMs = this.o.timeoutMs): Promise<LimitedResult | null> {
    const r = await this.proc.request(payload, timeoutMs);
    if (!r) return null;
    return r.ok ? r : { ok: false, message: this.stopped(r.reason, r.stderr ?? "", timeoutMs) };
  }

  dispose(): void {
    this.proc.dispose();
  }

  /** Why the helper gave no answer, in the user's words. */
  private stopped(reason: string, stderr: string, timeoutMs: number): string {
    if (HEAP_EXHAUSTED.test(stderr))
      return `this template exhausted the render memory limit (${this.o.memoryMb} MB); its process was stopped`;
    if (reason.startsWith("no answer within"))
      return `this template ran past the render time limit (${timeoutMs / 1000} s); its process was stopped`;
    return `the render process ended: ${reason}`;
  }
}
