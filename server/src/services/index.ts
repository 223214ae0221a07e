// The services layer's entrance: everything other folders use from it.
export type { CapabilitySummary } from "./capabilities";
export type { CodeAction } from "./codeActions";
export type { FixAllAction } from "./fixAll";
export { validate } from "./diagnostics";
export { formatTemplate } from "./format";
export type { FormatOptions, FormatResult, LeftAlone } from "./format";
export type { Reference } from "./references";
export type { RenameEdit, RenameOptions, RenameRefusal, RenameTarget } from "./rename";
export type { SignatureHelp } from "./signatureHelp";
export { getLanguageService } from "./languageService";
