// The Test Explorer's cases as the extension runs them: in a helper process (caseWorker.ts) with the render
// heap limit and a time limit per case (LimitedProcess), so that a template that exhausts either fails its case
// with a message naming the limit, never blocks or ends the extension host.
import { type CaseResult, type Endpoint, REQUEST_TIMEOUT_MS, type TestCase } from "../../../server/src/templateTests";
import { LimitedProcess, type LimitedProcessOptions } from "../helperProcess/limitedProcess";

export interface CaseRequest {
  /** The test file; the helper reads it and its template itself. */
  testFile: string;
  name: string;
  updateSnapshots: boolean;
  /** Where a live case runs; without it a live case is skipped. */
  endpoint?: Endpoint;
}

export type CaseReply = { ok: true; result: CaseResult } | { ok: false; message: string };

/** A live case waits on the model: each of its requests may take the endpoint client's own time limit. */
function caseTimeLimitMs(tc: TestCase, timeoutMs: number, live: boolean): number {
  return live && tc.live ? timeoutMs + tc.live.samples * tc.live.turns * REQUEST_TIMEOUT_MS : timeoutMs;
}

/** `command args` start caseWorker (`node dist/templateTestWorker.js`, or `node --import tsx caseWorker.ts`); `timeoutMs` bounds one case that does not wait on a model. */
export class CaseProcess {
  private readonly proc: LimitedProcess;

  constructor(private readonly o: LimitedProcessOptions) {
    this.proc = new LimitedProcess(o);
  }

  /** Runs `tc` (a case of `req.testFile`, named `req.name`). One case at a time: the Test Explorer awaits each. */
  async run(tc: TestCase, req: CaseRequest): Promise<CaseReply> {
    const r = await this.proc.request(req, caseTimeLimitMs(tc, this.o.timeoutMs, req.endpoint !== undefined));
    if (!r) throw new Error("a case was run while another was waiting: run them one at a time");
    return r.ok ? (r.reply as unknown as CaseReply) : { ok: false, message: r.message };
  }

  dispose(): void {
    this.proc.dispose();
  }
}
