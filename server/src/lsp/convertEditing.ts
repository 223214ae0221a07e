// The editing features (signature help, references, highlights, rename) in LSP shapes; kept apart from
// convert.ts, which the older editor services own.
import { DocumentHighlightKind, type DocumentHighlight, type SignatureHelp as LspSignatureHelp } from "vscode-languageserver";
import type { TemplateDocument } from "../document";
import type { Reference, SignatureHelp } from "../services";
import { toRange } from "./convert";

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
