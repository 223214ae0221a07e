// Where the analysis process's renders are, as the language server learns it: the process reports the position
// of the document's render (document/renderProgress.ts) from a thread of its own (analysisProgressThread.ts) over
// an extra pipe, and the server keeps the last one it received, so that an analysis that fails, even by the
// process's death, gets its diagnostic at the statement it was running (analysisDiagnostic.ts).
import { Worker } from "node:worker_threads";
import type { Readable } from "node:stream";
import { renderProgressBuffer, watchRenders, type RenderPosition, type Span } from "../document";

/** The pipe's index in the analysis process's stdio: its file descriptor there (analysisWorker.ts forks with it). */
export const PROGRESS_FD = 4;

export interface ProgressReporting {
  buffer: SharedArrayBuffer;
  fd: number;
}

/** In the analysis process: starts the reporting thread (script: dist/analysisProgress.js). */
export function reportRenderProgress(script: string): void {
  const thread = new Worker(script, { workerData: { buffer: renderProgressBuffer, fd: PROGRESS_FD } satisfies ProgressReporting });
  // it must not keep the process alive once the server is gone
  thread.unref();
}

/** In the analysis process: the request `id` analyses `text`; its renders of that text report their position. */
export function analysing(id: number, text: string): void {
  watchRenders(text, id);
}

/** In the server: the last position the analysis process reported on `pipe`. */
export class ReportedProgress {
  private last: RenderPosition | null = null;
  private pending = "";

  constructor(pipe: Readable) {
    pipe.setEncoding("utf8");
    pipe.on("data", (chunk: string) => {
      const lines = (this.pending + chunk).split("\n");
      this.pending = lines.pop()!;
      const line = lines.at(-1);
      if (line === undefined) return;
      const [tag, start, end] = line.split(" ").map(Number);
      this.last = { tag, start, end };
    });
  }

  /** Where request `id` last rendered its document, or null when it reported nothing. */
  of(id: number): Span | null {
    return this.last?.tag === id ? { start: this.last.start, end: this.last.end } : null;
  }
}
