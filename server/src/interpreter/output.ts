// The output of a render (or of a macro body, a set block, a filter block) with its provenance:
// every chunk records the node that wrote it, so a diff of two renders can name the template
// construct behind each differing byte.
import type * as A from "../parser/ast";
import { Fault } from "./errors";

export interface Chunk {
  /** Range in the output, UTF-16 offsets. */
  start: number;
  end: number;
  /** The node that produced it, and its range in the template. */
  nodeId: number;
  sourceStart: number;
  sourceEnd: number;
}

export class Output {
  private readonly parts: string[] = [];
  readonly chunks: Chunk[] = [];
  length = 0;

  constructor(private readonly limit: number) {}

  write(s: string, node: A.Node): void {
    if (s.length === 0) return;
    const start = this.length;
    this.grow(s);
    this.chunks.push({ start, end: this.length, nodeId: node.id, sourceStart: node.start, sourceEnd: node.end });
  }

  /** Writes text whose provenance is already known (a macro's output printed by `{{ m() }}`). */
  writeTraced(s: string, chunks: readonly Chunk[]): void {
    const start = this.length;
    if (this.length + s.length > this.limit) this.grow(s);
    // One piece per chunk, as if its writes had happened here (see pieces).
    for (const c of chunks) {
      this.grow(s.slice(c.start, c.end));
      this.chunks.push({ ...c, start: c.start + start, end: c.end + start });
    }
  }

  private grow(s: string): void {
    if (this.length + s.length > this.limit) {
      throw new Fault("limit/output", null, `output exceeds the limit of ${this.limit} characters`);
    }
    this.parts.push(s);
    this.length += s.length;
  }

  /** The strings written, one per write: an engine that keeps string parts builds its captured values from these. */
  get pieces(): readonly string[] {
    return this.parts;
  }

  toString(): string {
    return this.parts.join("");
  }
}
