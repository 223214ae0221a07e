// The editing features (signature help, references, highlights, rename) in LSP shapes; kept apart from
// convert.ts, which the older editor services own.
import {
  DocumentHighlightKind,
  type DocumentHighlight,
  type PrepareRenameResult,
  type SignatureHelp as LspSignatureHelp,
  type WorkspaceEdit,
} from "vscode-languageserver";
import type { TemplateDocument } from "../document";
import type { Reference, RenameEdit, RenameTarget, SignatureHelp } from "../services";
import { toLspWorkspaceEdit, toRange } from "./convert";

export function toLspHighlight(doc: TemplateDocument, r: Reference): DocumentHighlight {
  return { range: toRange(doc, r), kind: r.kind === "write" ? DocumentHighlightKind.Write : DocumentHighlightKind.Read };
}

export function toLspSignatureHelp(h: SignatureHelp): LspSignatureHelp {
  return {
    signatures: h.signatures.map((s) => ({
      label: s.label,
      documentation: { kind: "markdown", value: s.documentation },
      parameters: s.parameters.map((p) => ({ label: p.label })),
    })),
    activeSignature: h.activeSignature,
    activeParameter: h.activeParameter < 0 ? null : h.activeParameter,
  };
}

export function toLspPrepareRename(doc: TemplateDocument, t: RenameTarget): PrepareRenameResult {
  return { range: toRange(doc, t.span), placeholder: t.placeholder };
}

export function toLspRenameEdit(doc: TemplateDocument, uri: string, r: RenameEdit): WorkspaceEdit {
  return toLspWorkspaceEdit(doc, uri, r.edits);
}
