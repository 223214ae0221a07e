// Public types of the language service. Offsets are UTF-16 code units into the template text;
// the LSP layer and the CLI convert them to line/column.
import type { RelatedSpan, Span } from "../parser";

export type { Span, RelatedSpan };

/** The engines a diagnostic or fact can name; their list, labels and dialects are the registry's (dialects/). */
export type EngineId = "jinja2" | "llamacpp" | "minja" | "hfjinja" | "llama-server" | "jinja2-3.1.2";

export type Severity = "error" | "warning" | "information" | "hint";

export interface Diagnostic extends Span {
  severity: Severity;
  /** `syntax/…` for parse problems; `<engine>/…` or `compat/…` for engine rules. */
  code: string;
  /** null for syntax problems, which concern the template itself. */
  engine: EngineId | null;
  message: string;
  related?: RelatedSpan[];
}

// ---------------------------------------------------------------- editor features

export interface Hover {
  /** Markdown. */
  contents: string;
  /** The word the hover is about. */
  span: Span;
}

export type CompletionKind = "keyword" | "variable" | "field" | "method" | "function" | "filter" | "test" | "macro";

export interface CompletionItem {
  label: string;
  kind: CompletionKind;
  /** One line shown next to the label, e.g. a type or a signature. */
  detail?: string;
  /** Markdown. */
  documentation?: string;
  /** What is inserted when it differs from the label. */
  insertText?: string;
  /** The text the item replaces (the part of the word already typed, or an empty span at the cursor). */
  span: Span;
  /** Offered first (the end tag of the innermost open block). */
  preselect?: boolean;
}

export type SymbolKind = "macro" | "variable" | "namespace" | "attribute" | "loop" | "block";

export interface DocumentSymbol {
  name: string;
  kind: SymbolKind;
  detail?: string;
  /** The whole statement. */
  span: Span;
  /** The name, or the opening tag when there is no name. */
  selectionSpan: Span;
  children: DocumentSymbol[];
}

/** Lines are 0-based; the end line is the last one hidden, so an end tag stays visible. */
export interface FoldingRange {
  startLine: number;
  endLine: number;
  kind?: "comment";
}

export const SEMANTIC_TOKEN_TYPES = ["keyword", "variable", "parameter", "function", "method", "property", "namespace"] as const;
export const SEMANTIC_TOKEN_MODIFIERS = ["declaration", "readonly", "defaultLibrary"] as const;
export type SemanticTokenType = (typeof SEMANTIC_TOKEN_TYPES)[number];
export type SemanticTokenModifier = (typeof SEMANTIC_TOKEN_MODIFIERS)[number];

export interface SemanticToken extends Span {
  type: SemanticTokenType;
  modifiers: SemanticTokenModifier[];
}

export interface Definition {
  /** The word at the cursor that was resolved. */
  origin: Span;
  /** The defining statement. */
  span: Span;
  /** The defined name within it. */
  selectionSpan: Span;
}
