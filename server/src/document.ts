// One template text with its parse, computed once and shared by every feature.
import type { Template } from "./parser/ast";
import type { Token } from "./parser/lexer";
import { LineIndex } from "./parser/lineIndex";
import { parse } from "./parser/parser";
import type { SyntaxProblem } from "./parser/problems";

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
