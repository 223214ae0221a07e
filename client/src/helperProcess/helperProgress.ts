// The helper's side of the report of where its render is (server/src/progressPipe): a helper started by a
// LimitedProcess reports on the pipe at PROGRESS_FD, so that the error of a render that ends the helper (a time
// limit, an exhausted heap) says the line the template was at.
import { join } from "node:path";
import { reportRenderProgress, reportRendersOf } from "../../../server/src/progressPipe";

/** The pipe's file descriptor in the helper, after stdin, stdout and stderr. */
export const PROGRESS_FD = 3;

/** What a LimitedProcess adds to each request: the tag its renders report their position with. */
export interface ProgressTagged {
  progressTag: number;
}

/** Starts reporting; the helper is bundled in dist/, next to the reporting thread's dist/renderProgress.js. */
export function reportProgressToParent(): void {
  reportRenderProgress(join(__dirname, "renderProgress.js"), PROGRESS_FD);
}

/** `request` renders `template`: its renders of that text report their position under the request's tag. */
export function rendering(request: ProgressTagged, template: string): void {
  reportRendersOf(template, request.progressTag);
}
