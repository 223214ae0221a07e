// What the language server asks of its analysis process (analysisProcess.ts) and what comes back, over
// Node's IPC channel. Only the analyses that run the template go there (engine checks, quick fixes, fix all, the
// capability probe, the security finding under the cursor): they run the template, and a template can build values or loop until a limit;
// and the features of the parse of a document too large to parse on the server's thread (largeDocument.ts).
import type { Diagnostic, EngineId, Span } from "../document";
import type { FormatOptions } from "../services";

export interface AnalysisSettings {
  engines: EngineId[];
  nullToolsProbe: boolean;
  /** chatTemplate.llamaServer.args: the flags the user's llama-server starts with. */
  llamaServerArgs: string[];
  /** Also report the engines' findings in the scenarios where Jinja2 itself throws. */
  unsupportedScenarios: boolean;
}

export type AnalysisRequest =
  /** `model`: the GGUF whose tokenizer the `model/…` checks use, if the document serves one. */
  | { kind: "validate"; text: string; settings: AnalysisSettings; model: string | null }
  | { kind: "codeActions"; text: string; settings: AnalysisSettings; range: Span }
  | { kind: "fixAll"; text: string; settings: AnalysisSettings }
  | { kind: "capabilities"; text: string }
  /** Format Document (no range) or Format Selection: the proof renders the template in every engine. */
  | { kind: "format"; text: string; options: FormatOptions }
  /** The security finding at `offset`, for hover: finding it folds constants and renders the template. */
  | { kind: "securityHover"; text: string; offset: number }
  /** The outline or folding of a document too large to parse on the server's thread (largeDocument.ts). */
  | { kind: "parseFeature"; text: string; feature: ParseFeature }
  /** Rename renders the template before and after, in every engine, to prove the edit harmless. */
  | { kind: "rename"; text: string; offset: number; newName: string; settings: AnalysisSettings };

export type ParseFeature = "symbols" | "folding";

/** What a validation answers; `modelError`: why the model's GGUF could not be read (its checks are skipped). */
export interface Validation {
  diagnostics: Diagnostic[];
  modelError: string | null;
}

/** The pipe the analysis process reports where its render is on (server/src/progressPipe): its file descriptor there, after the IPC channel's. */
export const PROGRESS_FD = 4;

export type AnalysisReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };
