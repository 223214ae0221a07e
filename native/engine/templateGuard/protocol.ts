// The messages between the endpoint's thread and the template guard's (isolated.ts, worker.ts).
import type { EngineErrorCode, TemplateLimitError } from "../errors";
import type { ServedTemplates } from "./servedTemplates";

export interface Tokens {
  bos: string;
  eos: string;
}

export type GuardCall =
  | { op: "templates"; served: ServedTemplates; tokens: Tokens }
  | { op: "request"; served: ServedTemplates; tokens: Tokens; inputsJson: string }
  | { op: "render"; source: string; json: string };

export type GuardAnswer =
  | { ok: true }
  | { ok: false; kind: "limit"; limit: TemplateLimitError["limit"]; line: number; column: number; message: string }
  | { ok: false; kind: "refused"; line: number; column: number; message: string }
  | { ok: false; kind: "engine"; code: EngineErrorCode; message: string }
  | { ok: false; kind: "failed"; message: string };
