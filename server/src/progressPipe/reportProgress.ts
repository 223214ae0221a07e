// The helper process's side: its renders store their position in shared memory (renderProgress.ts), and
// a thread of its own (progressThread.ts) copies the position of the watched text's render to a pipe to the parent,
// which keeps the last one (reportedProgress.ts), so that a render that fails, even by the process's death, is
// placed at the statement it was running.
import { Worker } from "node:worker_threads";
import { renderProgressBuffer, watchRenders } from "./renderProgress";

export interface ProgressReporting {
  buffer: SharedArrayBuffer;
  /** The pipe to the parent: its file descriptor in this process (the parent's stdio index). */
  fd: number;
}

/** Starts the reporting thread (script: dist/renderProgress.js) writing to file descriptor `fd`. */
export function reportRenderProgress(script: string, fd: number): void {
  const thread = new Worker(script, { workerData: { buffer: renderProgressBuffer, fd } satisfies ProgressReporting });
  // it must not keep the process alive once the parent is gone
  thread.unref();
}

/** The request tagged `tag` (not 0) renders `text`: its renders of that text report their position with the tag. */
export function reportRendersOf(text: string, tag: number): void {
  watchRenders(text, tag);
}
