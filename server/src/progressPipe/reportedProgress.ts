// The parent's side of a helper process's progress reports (reportProgress.ts): the last position the helper's
// reporting thread wrote on the pipe, whatever the pipe's chunks cut.
import type { Readable } from "node:stream";
import type { Span } from "../document";
import type { RenderPosition } from "./renderProgress";

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

  /** Where the request tagged `tag` last rendered its text, or null when it reported nothing. */
  of(tag: number): Span | null {
    return this.last?.tag === tag ? { start: this.last.start, end: this.last.end } : null;
  }
}
