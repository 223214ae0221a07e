// One template text with its parse, computed once and shared by every feature.
import { lex, LineIndex, parse, type ParseResult, type SyntaxProblem, type Template, type Token } from "../parser";

export class TemplateDocument {
  readonly lines: LineIndex;
  private parsed: ParseResult | undefined;
  private lexed: Token[] | undefined;

  constructor(readonly text: string) {
    this.lines = new LineIndex(text);
  }

  /**
   * The parse, made on first use: a render in an engine with a parser of its own (llama.cpp's) never reads it, and
   * for a 10 MB template it would hold 300 MB next to the engine's own tree.
   */
  get template(): Template {
    return (this.parsed ??= parse(this.text)).template;
  }

  get problems(): SyntaxProblem[] {
    return (this.parsed ??= parse(this.text)).problems;
  }

  /**
   * The tokens, lexed again on first use: only hover and completion read them, and a render or a check that
   * kept the parse's would hold them all its life (220 MB of the 400 MB a 6 MB template's document holds).
   */
  get tokens(): Token[] {
    return (this.lexed ??= lex(this.text).tokens);
  }
}
