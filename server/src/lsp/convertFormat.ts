// The formatter's edits in LSP shapes.
import type { TextEdit as LspTextEdit } from "vscode-languageserver";
import type { TemplateDocument } from "../document";
import type { FormatResult } from "../services";
import { toRange } from "./convert";

export function toLspTextEdit(doc: TemplateDocument, e: FormatResult["edits"][number]): LspTextEdit {
  return { range: toRange(doc, e), newText: e.newText };
}
