import type { Span } from "./ast";

export interface RelatedSpan extends Span {
  message: string;
}

/** A problem found while lexing or parsing. Codes start with `syntax/`. */
export interface SyntaxProblem extends Span {
  code: `syntax/${string}`;
  message: string;
  severity: "error" | "warning";
  related?: RelatedSpan[];
}
