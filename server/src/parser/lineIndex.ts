// Offset <-> line/character conversion. Characters are UTF-16 code units, as in LSP and in
// JavaScript strings; lines break at \n, \r\n and \r, as in Jinja2 and in VS Code.
export interface Position {
  /** 0-based */
  line: number;
  /** 0-based, UTF-16 code units */
  character: number;
}

export class LineIndex {
  private lazyStarts: number[] | null = null;

  constructor(readonly text: string) {}

  /** Built on first use: most parses (every clean one) never convert an offset. */
  private get starts(): number[] {
    if (this.lazyStarts) return this.lazyStarts;
    const text = this.text;
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0d) {
        if (text.charCodeAt(i + 1) === 0x0a) i++;
        starts.push(i + 1);
      } else if (c === 0x0a) {
        starts.push(i + 1);
      }
    }
    return (this.lazyStarts = starts);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  lineOf(offset: number): number {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  positionAt(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineOf(o);
    return { line, character: o - this.starts[line] };
  }

  offsetAt(pos: Position): number {
    const starts = this.starts;
    if (pos.line >= starts.length) return this.text.length;
    if (pos.line < 0) return 0;
    const lineEnd = pos.line + 1 < starts.length ? starts[pos.line + 1] : this.text.length;
    return Math.min(starts[pos.line] + Math.max(0, pos.character), lineEnd);
  }
}
