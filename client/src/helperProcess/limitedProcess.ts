// Where the extension host runs the user's template: a Node helper process (a LineProcess) started with a capped
// V8 heap and a time limit per request, so that a template that exhausts either ends that process, never the
// extension host, and the caller gets an error that names the limit and the line the template's render was at
// (the helper reports it, helperProgress.ts). The preview's dialect columns, "Test Template Against Model", the
// Test Explorer's cases and Compare Templates run their templates in these.
import type { Readable } from "node:stream";
import { LineIndex } from "../../../server/src/parser";
import { ReportedProgress } from "../../../server/src/progressPipe";
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

/** Where in the template a render that ended its helper was: offsets, and the 1-based line and column of the start. */
export interface StoppedAt {
  start: number;
  end: number;
  line: number;
  column: number;
}

export type LimitedResult = { ok: true; reply: Record<string, unknown> } | { ok: false; message: string; at?: StoppedAt };

const HEAP_EXHAUSTED = /heap out of memory|Reached heap limit|invalid (size|array length|table size)/i;

export class LimitedProcess {
  private readonly proc: LineProcess;
  /** What the helper now running reports. */
  private progress: ReportedProgress | null = null;
  private nextTag = 1;

  constructor(private readonly o: LimitedProcessOptions) {
    this.proc = new LineProcess({
      command: o.command,
      args: [`--max-old-space-size=${o.memoryMb}`, ...o.args],
      // in VS Code, process.execPath is Electron, which runs as plain Node with ELECTRON_RUN_AS_NODE
      env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
      timeoutMs: o.timeoutMs,
      progressPipe: (pipe: Readable) => (this.progress = new ReportedProgress(pipe)),
    });
  }

  /** The helper's `version` from its first line, once it has started. */
  get version(): string | null {
    return this.proc.version;
  }

  /**
   * The helper's reply, why it gave none, or null when a newer request replaced this one before it ran. The helper
   * gets `payload` with a `progressTag` (helperProgress.ts), under which its renders of the template report where they
   * are; `template` gives that text (null: it cannot be read), read only when a render that ended the helper reported a position.
   */
  async request(payload: object, template: () => string | null, timeoutMs = this.o.timeoutMs): Promise<LimitedResult | null> {
    const progressTag = this.nextTag++;
    const r = await this.proc.request({ ...payload, progressTag }, timeoutMs);
    if (!r) return null;
    if (r.ok) return r;
    const span = this.progress?.of(progressTag);
    const text = span ? template() : null;
    const at = span && text !== null ? stoppedAt(text, span) : undefined;
    return { ok: false, message: this.stopped(r.reason, r.stderr ?? "", timeoutMs, at), ...(at ? { at } : {}) };
  }

  dispose(): void {
    this.proc.dispose();
  }

  /** Why the helper gave no answer, in the user's words. */
  private stopped(reason: string, stderr: string, timeoutMs: number, at: StoppedAt | undefined): string {
    const where = at ? ` at line ${at.line}` : "";
    if (HEAP_EXHAUSTED.test(stderr))
      return `this template exhausted the render memory limit (${this.o.memoryMb} MB)${where}; its process was stopped`;
    if (reason.startsWith("no answer within"))
      return `this template ran past the render time limit (${timeoutMs / 1000} s)${where}; its process was stopped`;
    return `the render process ended${where}: ${reason}`;
  }
}

/** The span, if it is one of `template`: the helper rendered the same text, but its report crossed a thread and a pipe. */
function stoppedAt(template: string, s: { start: number; end: number }): StoppedAt | undefined {
  if (!(Number.isInteger(s.start) && Number.isInteger(s.end) && 0 <= s.start && s.start <= s.end && s.end <= template.length))
    return undefined;
  const p = new LineIndex(template).positionAt(s.start);
  return { start: s.start, end: s.end, line: p.line + 1, column: p.character + 1 };
}
