// Code actions and the capability lens in LSP shapes; kept apart from convert.ts, which the editor
// services own.
import { CodeActionKind, type CodeAction as LspCodeAction, type CodeLens } from "vscode-languageserver";
import type { TemplateDocument } from "../document";
import type { CapabilitySummary, CodeAction, FixAllAction } from "../services";
import { toLspDiagnostic, toLspWorkspaceEdit, toRange } from "./convert";

export function toLspCodeAction(doc: TemplateDocument, uri: string, a: CodeAction): LspCodeAction {
  return {
    title: a.title,
    kind: CodeActionKind.QuickFix,
    diagnostics: a.diagnostics.map((d) => toLspDiagnostic(doc, uri, d)),
    edit: toLspWorkspaceEdit(doc, uri, a.edits),
  };
}

export function toLspFixAll(doc: TemplateDocument, uri: string, a: FixAllAction): LspCodeAction {
  return {
    title: a.title,
    kind: CodeActionKind.SourceFixAll,
    edit: toLspWorkspaceEdit(doc, uri, a.edits),
  };
}

/** A lens that only shows text: an empty command id makes VS Code render it unclickable. */
export function toLspCapabilityLens(doc: TemplateDocument, s: CapabilitySummary): CodeLens {
  return { range: toRange(doc, s.span), command: { title: s.title, command: "" } };
}
