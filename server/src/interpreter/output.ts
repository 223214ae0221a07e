// The output of a render (or of a macro body, a set block, a filter block) with its provenance:
// every chunk records the node that wrote it, so a diff of two renders can name the template
// construct behind each differing byte.
import type * as A from "../parser";
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

export interface OutputMark {
  length: number;
  parts: number;
  data: number;
}

/** Chunks are kept as flat numbers (start, end, nodeId, sourceStart, sourceEnd): one write is no allocation. */
const FIELDS = 5;

export class Output {
  /** V8 builds `+=` strings as ropes: cheaper than collecting parts and joining them. */
  private text = "";
  private readonly parts: string[] = [];
  private readonly data: number[] = [];
  length = 0;

  /** `keepPieces`: one part per write even for traced text (an engine reads them, see Dialect.captured). */
  constructor(
    private readonly limit: number,
    private readonly keepPieces = false,
  ) {}

  write(s: string, node: A.Node): void {
    if (s.length === 0) return;
    const start = this.length;
    this.grow(s);
    this.data.push(start, this.length, node.id, node.start, node.end);
  }

  /** Writes `from`'s text with its provenance (a macro's output printed by `{{ m() }}`). */
  writeTraced(from: Output): void {
    const s = from.toString();
    const start = this.length;
    const d = from.data;
    if (this.length + s.length > this.limit || !this.keepPieces) this.grow(s);
    for (let i = 0; i < d.length; i += FIELDS) {
      // One piece per chunk, as if its writes had happened here (see pieces).
      if (this.keepPieces) this.grow(s.slice(d[i], d[i + 1]));
      this.data.push(d[i] + start, d[i + 1] + start, d[i + 2], d[i + 3], d[i + 4]);
    }
  }

  private grow(s: string): void {
    if (this.length + s.length > this.limit) {
      throw new Fault("limit/output", null, `output exceeds the limit of ${this.limit} characters`);
    }
    if (this.keepPieces) this.parts.push(s);
    this.text += s;
    this.length += s.length;
  }

  /** Where the output stands, to cut it back to (a statement a break interrupted writes nothing in some engines). */
  mark(): OutputMark {
    return { length: this.length, parts: this.parts.length, data: this.data.length };
  }

  truncate(m: OutputMark): void {
    this.text = this.text.slice(0, m.length);
    this.length = m.length;
    this.parts.length = m.parts;
    this.data.length = m.data;
  }

  get chunks(): Chunk[] {
    const d = this.data;
    const out: Chunk[] = [];
    for (let i = 0; i < d.length; i += FIELDS)
      out.push({ start: d[i], end: d[i + 1], nodeId: d[i + 2], sourceStart: d[i + 3], sourceEnd: d[i + 4] });
    return out;
  }

  /** The strings written, one per write (kept only with `keepPieces`): an engine that keeps string parts builds its captured values from these. */
  get pieces(): readonly string[] {
    return this.parts;
  }

  toString(): string {
    return this.text;
  }
}
