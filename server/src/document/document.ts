// One template text with its parse, computed once and shared by every feature.
import { lex, LineIndex, parse, type SyntaxProblem, type Template, type Token } from "../parser";

export class TemplateDocument {
  readonly lines: LineIndex;
  readonly template: Template;
  readonly problems: SyntaxProblem[];
  private lexed: Token[] | undefined;

  constructor(readonly text: string) {
    this.lines = new LineIndex(text);
    const r = parse(text);
    this.template = r.template;
    this.problems = r.problems;
  }

  /**
   * The tokens, lexed again on first use: only hover and completion read them, and a render or a check that
   * kept the parse's would hold them all its life (220 MB of the 400 MB a 6 MB template's document holds).
   */
  get tokens(): Token[] {
    return (this.lexed ??= lex(this.text).tokens);
  }
}
