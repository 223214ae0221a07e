// The template tests' work on the user's template as the extension runs it: the Test Explorer's cases and the
// markers Compare Templates reads a template's replies with, in a helper process (caseWorker.ts) with the render
// heap limit and a time limit per request (LimitedProcess), so that a template that exhausts either fails its
// case or comparison with a message naming the limit and the line its render was at, and never blocks or ends the
// extension host.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type CaseResult,
  type Endpoint,
  type Markers,
  readTestFile,
  REQUEST_TIMEOUT_MS,
  type TestCase,
} from "../../../server/src/templateTests";
import { LimitedProcess, RENDER_MEMORY_MB, type LimitedProcessOptions, type StoppedAt } from "../helperProcess/limitedProcess";

export interface CaseRequest {
  /** The test file; the helper reads it and its template itself. */
  testFile: string;
  name: string;
  updateSnapshots: boolean;
  /** Where a live case runs; without it a live case is skipped. */
  endpoint?: Endpoint;
}

/** `at`: where in the template the render that ended the helper was. */
export type Stopped = { ok: false; message: string; at?: StoppedAt };
export type CaseReply = { ok: true; result: CaseResult } | Stopped;
export type MarkersReply = { ok: true; markers: Markers } | Stopped;
/** What the helper reads on a line, with the `progressTag` LimitedProcess adds. */
export type WorkerRequest = ({ kind: "case" } & CaseRequest) | { kind: "markers"; template: string };

/** One case (caps probes, renders in each engine, diagnostics) past this is stopped; a live case adds its requests' time. */
export const CASE_TIME_LIMIT_MS = 60_000;

/** A live case waits on the model: each of its requests may take the endpoint client's own time limit. */
function caseTimeLimitMs(tc: TestCase, timeoutMs: number, live: boolean): number {
  return live && tc.live ? timeoutMs + tc.live.samples * tc.live.turns * REQUEST_TIMEOUT_MS : timeoutMs;
}

/** The helper as the extension starts it: its dist/templateTestWorker.js, with the extension's limits. */
export function extensionCaseProcess(extensionPath: string): CaseProcess {
  return new CaseProcess({
    command: process.execPath,
    args: [join(extensionPath, "dist", "templateTestWorker.js")],
    timeoutMs: CASE_TIME_LIMIT_MS,
    memoryMb: RENDER_MEMORY_MB,
  });
}

/** `command args` start caseWorker (`node dist/templateTestWorker.js`, or `node --import tsx caseWorker.ts`); `timeoutMs` bounds one request that does not wait on a model. */
export class CaseProcess {
  private readonly proc: LimitedProcess;

  constructor(private readonly o: LimitedProcessOptions) {
    this.proc = new LimitedProcess(o);
  }

  /** Runs `tc` (a case of `req.testFile`, named `req.name`). One request at a time: the callers await each. */
  run(tc: TestCase, req: CaseRequest): Promise<CaseReply> {
    const template = () => {
      try {
        return readFileSync(readTestFile(req.testFile).templatePath, "utf8");
      } catch {
        return null;
      }
    };
    return this.ask({ kind: "case", ...req }, template, caseTimeLimitMs(tc, this.o.timeoutMs, req.endpoint !== undefined));
  }

  /** The markup that, left in a reply's content, shows a call or reasoning the server did not lift out (markersOf). */
  markers(template: string): Promise<MarkersReply> {
    return this.ask({ kind: "markers", template }, () => template, this.o.timeoutMs);
  }

  /** `template`: the text the helper renders, read only to place a failure (the helper reads a case's template itself). */
  private async ask<T>(req: WorkerRequest, template: () => string | null, timeoutMs: number): Promise<T | Stopped> {
    const r = await this.proc.request(req, template, timeoutMs);
    if (!r) throw new Error("a request was sent while another was waiting: send them one at a time");
    return r.ok ? (r.reply as T) : r;
  }

  dispose(): void {
    this.proc.dispose();
  }
}
