// One template text with its parse, computed once and shared by every feature.
import { LineIndex, parse, type SyntaxProblem, type Template, type Token } from "../parser";

export class TemplateDocument {
  readonly lines: LineIndex;
  readonly template: Template;
  readonly tokens: Token[];
  readonly problems: SyntaxProblem[];

  constructor(readonly text: string) {
    this.lines = new LineIndex(text);
    const r = parse(text);
    this.template = r.template;
    this.tokens = r.tokens;
    this.problems = r.problems;
  }
}
