// The parser layer's entrance: everything other folders use from it.
export type { Token } from "./lexer";
export { LineIndex } from "./lineIndex";
export { lex } from "./lexer";
export { parse, type ParseResult } from "./parser";
export type { RelatedSpan, SyntaxProblem } from "./problems";
export * from "./ast";
export { children, forEachChild, nodesAt, walk, within } from "./walk";
export { deepestOpening, limitDepth, MAX_DEPTH, MAX_NESTING, nestingMessage } from "./nesting";
export { fitted } from "./fitted";
export { TokenWindow } from "./tokenWindow";
