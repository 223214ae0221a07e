// The document layer's entrance: everything other folders use from it.
export { TemplateDocument } from "./document";
export { SEMANTIC_TOKEN_MODIFIERS, SEMANTIC_TOKEN_TYPES } from "./types";
export type {
  CompletionItem,
  CompletionKind,
  Definition,
  Diagnostic,
  DocumentSymbol,
  EngineId,
  FoldingRange,
  Hover,
  SemanticToken,
  SemanticTokenModifier,
  SemanticTokenType,
  Severity,
  Span,
} from "./types";
