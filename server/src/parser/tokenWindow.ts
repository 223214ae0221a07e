// A parser's tokens, lexed as it reads them and let go once it is past them. Lexed whole first, a 10 MB
// template's tokens (5 million, 370 MB) all lived as long as the parse did, next to the tree it built.

/** Tokens before the parser's position are dropped this many at a time, so that dropping costs no more than lexing. */
const DROP_AT_ONCE = 4096;

export class TokenWindow<T> {
  /** The index of the first token `buffer` holds. */
  private base = 0;
  private ended = false;

  /** `step` lexes on, appending to `buffer` (at least one token, or none at the end: it says false then). */
  constructor(
    private readonly buffer: T[],
    private readonly step: () => boolean,
  ) {}

  /** The token at index `i`; undefined past the last, and before the first. */
  at(i: number): T | undefined {
    if (i < 0) return undefined;
    while (i - this.base >= this.buffer.length && !this.ended) this.ended = !this.step();
    if (i < this.base) throw new Error(`token ${i} was already let go`);
    return this.buffer[i - this.base];
  }

  /** How many tokens there are: the whole template lexed. */
  get length(): number {
    while (!this.ended) this.ended = !this.step();
    return this.base + this.buffer.length;
  }

  /** The parser will not ask for tokens before index `i` again. */
  release(i: number): void {
    if (i - this.base < DROP_AT_ONCE) return;
    this.buffer.splice(0, i - this.base);
    this.base = i;
  }
}
