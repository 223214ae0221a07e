// Language-service results (offsets) <-> LSP shapes (ranges, kinds, encodings).
import {
  type CompletionItem as LspCompletionItem,
  CompletionItemKind,
  type Diagnostic as LspDiagnostic,
  DiagnosticSeverity,
  type DocumentSymbol as LspDocumentSymbol,
  type FoldingRange as LspFoldingRange,
  FoldingRangeKind,
  type Location,
  type LocationLink,
  MarkupKind,
  type Range,
  type SemanticTokens,
  SemanticTokensBuilder,
  type SemanticTokensLegend,
  SymbolKind,
  type TextEdit,
  type WorkspaceEdit,
} from "vscode-languageserver";
import {
  type CompletionItem,
  type CompletionKind,
  type Definition,
  type Diagnostic,
  type DocumentSymbol as ServiceSymbol,
  type FoldingRange,
  SEMANTIC_TOKEN_MODIFIERS,
  SEMANTIC_TOKEN_TYPES,
  type SemanticToken,
  type Span,
  type TemplateDocument,
} from "../document";

export function toRange(doc: TemplateDocument, span: Span): Range {
  return { start: doc.lines.positionAt(span.start), end: doc.lines.positionAt(span.end) };
}

/** An edit of the document (a fix, a rename, a format) as LSP's text edit. */
export function toLspTextEdit(doc: TemplateDocument, e: Span & { newText: string }): TextEdit {
  return { range: toRange(doc, e), newText: e.newText };
}

/** Edits of the one document `uri`, as a workspace edit. */
export function toLspWorkspaceEdit(doc: TemplateDocument, uri: string, edits: readonly (Span & { newText: string })[]): WorkspaceEdit {
  return { changes: { [uri]: edits.map((e) => toLspTextEdit(doc, e)) } };
}

const SEVERITY: Record<Diagnostic["severity"], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function toLspDiagnostic(doc: TemplateDocument, uri: string, d: Diagnostic): LspDiagnostic {
  return {
    range: toRange(doc, d),
    severity: SEVERITY[d.severity],
    code: d.code,
    source: d.engine ? `chat-template (${d.engine})` : "chat-template",
    message: d.message,
    ...(d.related ? { relatedInformation: d.related.map((r) => ({ location: { uri, range: toRange(doc, r) }, message: r.message })) } : {}),
  };
}

const COMPLETION_KIND: Record<CompletionKind, CompletionItemKind> = {
  keyword: CompletionItemKind.Keyword,
  variable: CompletionItemKind.Variable,
  field: CompletionItemKind.Field,
  method: CompletionItemKind.Method,
  function: CompletionItemKind.Function,
  filter: CompletionItemKind.Function,
  test: CompletionItemKind.Function,
  macro: CompletionItemKind.Function,
};

export function toLspCompletion(doc: TemplateDocument, item: CompletionItem): LspCompletionItem {
  return {
    label: item.label,
    kind: COMPLETION_KIND[item.kind],
    ...(item.detail ? { detail: item.detail } : {}),
    ...(item.documentation ? { documentation: { kind: MarkupKind.Markdown, value: item.documentation } } : {}),
    ...(item.preselect ? { preselect: true, sortText: "0" } : {}),
    textEdit: { range: toRange(doc, item.span), newText: item.insertText ?? item.label },
  };
}

const SYMBOL_KIND: Record<ServiceSymbol["kind"], SymbolKind> = {
  macro: SymbolKind.Function,
  variable: SymbolKind.Variable,
  namespace: SymbolKind.Namespace,
  attribute: SymbolKind.Property,
  loop: SymbolKind.Array,
  block: SymbolKind.Module,
};

export function toLspSymbol(doc: TemplateDocument, s: ServiceSymbol): LspDocumentSymbol {
  return {
    name: s.name,
    kind: SYMBOL_KIND[s.kind],
    ...(s.detail ? { detail: s.detail } : {}),
    range: toRange(doc, s.span),
    selectionRange: toRange(doc, s.selectionSpan),
    children: s.children.map((c) => toLspSymbol(doc, c)),
  };
}

export function toLspFolding(r: FoldingRange): LspFoldingRange {
  return { startLine: r.startLine, endLine: r.endLine, ...(r.kind ? { kind: FoldingRangeKind.Comment } : {}) };
}

export const SEMANTIC_LEGEND: SemanticTokensLegend = {
  tokenTypes: [...SEMANTIC_TOKEN_TYPES],
  tokenModifiers: [...SEMANTIC_TOKEN_MODIFIERS],
};

/** LSP's relative encoding; names never span lines, so each token is one entry. */
export function toLspSemanticTokens(doc: TemplateDocument, tokens: SemanticToken[]): SemanticTokens {
  const builder = new SemanticTokensBuilder();
  for (const t of tokens) {
    const p = doc.lines.positionAt(t.start);
    const modifiers = t.modifiers.reduce((bits, m) => bits | (1 << SEMANTIC_TOKEN_MODIFIERS.indexOf(m)), 0);
    builder.push(p.line, p.character, t.end - t.start, SEMANTIC_TOKEN_TYPES.indexOf(t.type), modifiers);
  }
  return builder.build();
}

export function toLspDefinition(doc: TemplateDocument, uri: string, d: Definition, links: boolean): LocationLink[] | Location {
  const range = toRange(doc, d.span);
  if (!links) return { uri, range: toRange(doc, d.selectionSpan) };
  return [
    {
      originSelectionRange: toRange(doc, d.origin),
      targetUri: uri,
      targetRange: range,
      targetSelectionRange: toRange(doc, d.selectionSpan),
    },
  ];
}
