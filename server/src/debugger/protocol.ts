// What the adapter (main thread) and the render's worker thread tell each other. The worker runs the render and,
// at a stop, blocks on `signal` (Atomics.wait) and reads commands with receiveMessageOnPort, so a paused render
// answers requests without returning to its event loop; while it runs it looks at `signal` once per statement.
import type { MessagePort } from "node:worker_threads";
import type { EngineId } from "../document";

export interface BreakpointSpec {
  /** The start offset of the statement it is bound to (breakpoints.ts). */
  offset: number;
  condition?: string;
  hitCondition?: string;
  logMessage?: string;
}

export interface WorkerStart {
  source: string;
  /** The template context as JSON (Python's json.dumps of it), read back with parseJson. */
  contextJson: string;
  engine: EngineId;
  stopOnEntry: boolean;
  breakpoints: BreakpointSpec[];
  exceptions: ExceptionFilters;
  /** Int32Array over it: [0] is set when a command waits on the port. */
  signal: SharedArrayBuffer;
  port: MessagePort;
}

/** Where to stop besides breakpoints: where the engine throws, where its output first differs from Jinja2's. */
export interface ExceptionFilters {
  error: boolean;
  diverges: boolean;
}

export type StepKind = "continue" | "next" | "stepIn" | "stepOut";

export type Query =
  | { kind: "stackTrace" }
  | { kind: "scopes"; frameId: number }
  | { kind: "variables"; ref: number }
  | { kind: "evaluate"; expression: string; frameId?: number };

/** Main → worker, on the port. */
export type Command =
  | { type: "query"; id: number; query: Query }
  | { type: "breakpoints"; breakpoints: BreakpointSpec[] }
  | { type: "exceptions"; filters: ExceptionFilters }
  | { type: "pause" }
  | { type: "resume"; how: StepKind };

export interface FrameInfo {
  id: number;
  name: string;
  /** 1-based. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface VariableInfo {
  name: string;
  value: string;
  type?: string;
  variablesReference: number;
}

export interface ScopeInfo {
  name: string;
  variablesReference: number;
  presentationHint?: "arguments" | "locals" | "registers";
}

export type StopReason = "entry" | "breakpoint" | "step" | "pause" | "exception";

export interface RenderFailure {
  message: string;
  code: string;
  /** 1-based. */
  line: number;
  column: number;
}

/** Worker → main, on parentPort. */
export type Report =
  | { type: "stopped"; reason: StopReason; text?: string }
  | { type: "output"; category: "console" | "stdout" | "stderr"; text: string }
  | { type: "answer"; id: number; body?: unknown; error?: string }
  | { type: "done"; output: string; error: RenderFailure | null };
