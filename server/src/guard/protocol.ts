// The messages between the process that asks (guardProcess.ts) and the guard's process (worker.ts).
import type { ServedTemplates } from "./servedTemplates";
import type { Refusal, Tokens } from "./types";

export type GuardCall =
  | { op: "templates"; served: ServedTemplates; tokens: Tokens }
  | { op: "request"; served: ServedTemplates; tokens: Tokens; inputsJson: string }
  | { op: "render"; source: string; json: string };

/** The verdict, or the check's own failure (our render threw): the asking side refuses it with what it rendered. */
export type GuardAnswer = { refusal: Refusal | null } | { failed: string };
