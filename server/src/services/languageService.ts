// The language service facade: one method per editor feature, each a pure function of a parsed
// template (and an offset). The LSP server, the CLI and the tests all go through here; positions
// are UTF-16 offsets, converted to lines and columns only at the edges (document.lines).
import {
  type CompletionItem,
  type Definition,
  type Diagnostic,
  type DocumentSymbol,
  type FoldingRange,
  type Hover,
  type SemanticToken,
  type Span,
  TemplateDocument,
} from "../document";
import { getCapabilitySummary, type CapabilitySummary } from "./capabilities";
import { getCodeActions, type CodeAction } from "./codeActions";
import { doComplete } from "./completion";
import { findDefinition } from "./definition";
import { defaultValidationOptions, syntaxDiagnostics, validate, type ValidationOptions } from "./diagnostics";
import { type FixAllAction, getFixAll } from "./fixAll";
import { getFoldingRanges } from "./folding";
import { formatTemplate, type FormatOptions, type FormatResult, type LeftAlone } from "./format";
import { leftAloneHover } from "./formatHover";
import { securityHover } from "../analysis";
import { doHover, withRisk, wordHover } from "./hover";
import { findReferences, type Reference } from "./references";
import { prepareRename, rename, type RenameEdit, type RenameOptions, type RenameRefusal, type RenameTarget } from "./rename";
import { getSemanticTokens } from "./semanticTokens";
import { getSignatureHelp, type SignatureHelp } from "./signatureHelp";
import { findDocumentSymbols } from "./symbols";

export interface LanguageService {
  parseTemplate(text: string): TemplateDocument;
  doValidation(doc: TemplateDocument, options?: ValidationOptions): Diagnostic[];
  /** The parser's problems alone: cheap, renders nothing (what is left to show when the engine checks fail). */
  getSyntaxDiagnostics(doc: TemplateDocument): Diagnostic[];
  doHover(doc: TemplateDocument, offset: number): Hover | null;
  /** doHover in two halves: the word's, from the parse alone, and the security finding's, which folds the template's constants and renders it where a message triggers it (run it where a template may run: the language server's analysis process). */
  doWordHover(doc: TemplateDocument, offset: number): Hover | null;
  doSecurityHover(doc: TemplateDocument, offset: number): Hover | null;
  /** The two halves as one hover. */
  joinHovers(word: Hover | null, risk: Hover | null): Hover | null;
  doComplete(doc: TemplateDocument, offset: number): CompletionItem[];
  findDefinition(doc: TemplateDocument, offset: number): Definition | null;
  /** Every definition (`write`) and use (`read`) of the macro, parameter, variable or `ns.attr` at the offset. */
  findReferences(doc: TemplateDocument, offset: number): Reference[] | null;
  /** What a rename at the offset would replace (the name and its span), or why nothing there can be renamed. */
  prepareRename(doc: TemplateDocument, offset: number): RenameTarget | RenameRefusal;
  /** The edits renaming the symbol at the offset, after proving every engine renders every scenario alike; or why not. It renders the template: run it where a template may run. */
  rename(doc: TemplateDocument, offset: number, newName: string, options?: RenameOptions): RenameEdit | RenameRefusal;
  /** The signature of the call the cursor is in (macro, `caller()`, filter, test, global), with its active parameter. */
  getSignatureHelp(doc: TemplateDocument, offset: number): SignatureHelp | null;
  findDocumentSymbols(doc: TemplateDocument): DocumentSymbol[];
  getFoldingRanges(doc: TemplateDocument): FoldingRange[];
  getSemanticTokens(doc: TemplateDocument): SemanticToken[];
  /** Quick fixes for the engine diagnostics that touch `range`. */
  getCodeActions(doc: TemplateDocument, range: Span, options?: ValidationOptions): CodeAction[];
  /** Every safe fix at once (`source.fixAll`, the set `chat-template fix` applies), or null when none applies. */
  getFixAll(doc: TemplateDocument, options?: ValidationOptions): FixAllAction | null;
  /** Format Document / Format Selection: the canonical layout where every engine's behaviour is proven unchanged. */
  format(doc: TemplateDocument, options: FormatOptions): FormatResult;
  /** Why the last format (whose result `doc` is) left the line at `offset` as it is, or null. */
  doLeftAloneHover(doc: TemplateDocument, leftAlone: readonly LeftAlone[], offset: number): Hover | null;
  /** What llama.cpp's capability probe and autoparser infer (code lens and hover at the top). */
  getCapabilitySummary(doc: TemplateDocument): CapabilitySummary | null;
}

export function getLanguageService(): LanguageService {
  return {
    parseTemplate: (text) => new TemplateDocument(text),
    doValidation: (doc, options = defaultValidationOptions) => validate(doc, options),
    getSyntaxDiagnostics: syntaxDiagnostics,
    doHover,
    doWordHover: wordHover,
    doSecurityHover: securityHover,
    joinHovers: withRisk,
    doComplete,
    findDefinition,
    getSignatureHelp,
    findReferences,
    prepareRename,
    rename,
    findDocumentSymbols,
    getFoldingRanges,
    getSemanticTokens,
    getCodeActions: (doc, range, options = defaultValidationOptions) => getCodeActions(doc, range, options),
    getFixAll: (doc, options = defaultValidationOptions) => getFixAll(doc, options),
    format: (doc, options) => formatTemplate(doc, options),
    doLeftAloneHover: leftAloneHover,
    getCapabilitySummary: (doc) => getCapabilitySummary(doc),
  };
}
