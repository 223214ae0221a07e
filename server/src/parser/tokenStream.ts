// The parser's tokens, lexed as it reads them and let go once it is past them. Lexed whole first, a 10 MB
// template's tokens (5 million, 370 MB) all lived as long as the parse did and next to the tree it built.
import { Lexer, type LexOptions, type Token } from "./lexer";
import type { Comment } from "./ast";
import type { SyntaxProblem } from "./problems";

/** Tokens before the parser's position are dropped this many at a time, so that dropping costs no more than lexing. */
const DROP_AT_ONCE = 4096;

export class TokenStream {
  private readonly lexer: Lexer;
  /** The index of the lexer's first token kept. */
  private base = 0;

  constructor(source: string, options: LexOptions) {
    this.lexer = new Lexer(source, options);
  }

  /** The token at index `i`: the end-of-template token for any index past it. */
  at(i: number): Token {
    const tokens = this.lexer.tokens;
    while (i - this.base >= tokens.length && this.lexer.step());
    const k = i - this.base;
    if (k < 0) throw new Error(`token ${i} was already let go`);
    return tokens[Math.min(k, tokens.length - 1)];
  }

  /** The index of the end-of-template token (the whole template lexed). */
  get last(): number {
    while (this.lexer.step());
    return this.base + this.lexer.tokens.length - 1;
  }

  /** The parser will not ask for tokens before index `i` again. */
  release(i: number): void {
    if (i - this.base < DROP_AT_ONCE) return;
    this.lexer.tokens.splice(0, i - this.base);
    this.base = i;
  }

  /** What the lexer found besides tokens: complete once the end-of-template token was read. */
  get comments(): Comment[] {
    return this.lexer.comments;
  }
  get problems(): SyntaxProblem[] {
    return this.lexer.problems;
  }
}
