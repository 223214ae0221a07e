// Errors. Builtins and operators throw a `Fault` (cause code + Python-worded text, no location);
// `render` gives it the node the evaluator was running (see Evaluator.at) and returns it as a
// `RenderError`. A fault is never a JS exception leaking from the host: anything
// else thrown inside a render is a bug and is rethrown as is.
import type { Span } from "../parser";

export type CauseCode =
  | `syntax/${string}`
  | "runtime/undefined"
  | "runtime/type"
  | "runtime/value"
  | "runtime/index"
  | "runtime/key"
  | "runtime/zero-division"
  | "runtime/overflow"
  | "runtime/unknown-filter"
  | "runtime/unknown-test"
  | "runtime/raise-exception"
  | "runtime/security"
  | "runtime/no-loader"
  | "runtime/error"
  /** The engine refuses this construct when it reaches it. */
  | "runtime/unsupported"
  /** The engine does something here that this interpreter does not reproduce (random, …). */
  | "runtime/not-reproduced"
  | "limit/steps"
  | "limit/output"
  | "limit/recursion"
  | "limit/memory";

export class Fault extends Error {
  /** The node that raised it, set by the evaluator on the way out. */
  node: (Span & { id: number }) | null = null;

  constructor(
    readonly code: CauseCode,
    /** Python's exception class where the engine is Jinja2 (`TypeError` …), else null. */
    readonly pyType: string | null,
    readonly text: string,
  ) {
    // A fault is template data, not a host bug: capturing the JS stack (deep in a recursive
    // render) would cost more than the render itself.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(pyType ? `${pyType}: ${text}` : text);
    Error.stackTraceLimit = limit;
  }

  static type(text: string): Fault {
    return new Fault("runtime/type", "TypeError", text);
  }
  static value(text: string): Fault {
    return new Fault("runtime/value", "ValueError", text);
  }
  static undefined(text: string): Fault {
    return new Fault("runtime/undefined", "UndefinedError", text);
  }
  static runtime(text: string): Fault {
    return new Fault("runtime/error", "TemplateRuntimeError", text);
  }
  static notReproduced(text: string): Fault {
    return new Fault("runtime/not-reproduced", null, text);
  }
}

/** What `render` reports: where (offsets into the template), what (code) and the engine's words. */
export interface RenderError extends Span {
  code: CauseCode;
  message: string;
  /** The node that raised it; -1 for errors of the whole template (syntax). */
  nodeId: number;
}
