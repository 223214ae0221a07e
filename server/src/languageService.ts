// The language service facade: one method per editor feature, each a pure function of a parsed
// template (and an offset). The LSP server, the CLI and the tests all go through here; positions
// are UTF-16 offsets, converted to lines and columns only at the edges (document.lines).
import { TemplateDocument } from "./document";
import { getCapabilitySummary, type CapabilitySummary } from "./services/capabilities";
import { getCodeActions, type CodeAction } from "./services/codeActions";
import { doComplete } from "./services/completion";
import { findDefinition } from "./services/definition";
import { defaultValidationOptions, validate, type ValidationOptions } from "./services/diagnostics";
import { getFoldingRanges } from "./services/folding";
import { doHover } from "./services/hover";
import { getSemanticTokens } from "./services/semanticTokens";
import { findDocumentSymbols } from "./services/symbols";
import type { CompletionItem, Definition, Diagnostic, DocumentSymbol, FoldingRange, Hover, SemanticToken, Span } from "./types";

export interface LanguageService {
  parseTemplate(text: string): TemplateDocument;
  doValidation(doc: TemplateDocument, options?: ValidationOptions): Diagnostic[];
  doHover(doc: TemplateDocument, offset: number): Hover | null;
  doComplete(doc: TemplateDocument, offset: number): CompletionItem[];
  findDefinition(doc: TemplateDocument, offset: number): Definition | null;
  findDocumentSymbols(doc: TemplateDocument): DocumentSymbol[];
  getFoldingRanges(doc: TemplateDocument): FoldingRange[];
  getSemanticTokens(doc: TemplateDocument): SemanticToken[];
  /** Quick fixes for the engine diagnostics that touch `range`. */
  getCodeActions(doc: TemplateDocument, range: Span, options?: ValidationOptions): CodeAction[];
  /** What llama.cpp's capability probe and autoparser infer (code lens and hover at the top). */
  getCapabilitySummary(doc: TemplateDocument): CapabilitySummary | null;
}

export function getLanguageService(): LanguageService {
  return {
    parseTemplate: (text) => new TemplateDocument(text),
    doValidation: (doc, options = defaultValidationOptions) => validate(doc, options),
    doHover,
    doComplete,
    findDefinition,
    findDocumentSymbols,
    getFoldingRanges,
    getSemanticTokens,
    getCodeActions: (doc, range, options = defaultValidationOptions) => getCodeActions(doc, range, options),
    getCapabilitySummary: (doc) => getCapabilitySummary(doc),
  };
}
