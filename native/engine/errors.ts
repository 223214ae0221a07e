// Typed errors of the engine. `code` is stable (the endpoint maps codes to HTTP errors); messages are for people.
import { GGUFError } from "../../server/src/gguf";

export type EngineErrorCode =
  | "invalid_argument"
  | "file_not_found"
  | "invalid_model"
  | "model_mismatch"
  | "context_overflow"
  | "template_error"
  | "template_limit"
  | "template_refused"
  | "decode_error"
  | "backend_unavailable";

export class EngineError extends Error {
  constructor(
    readonly code: EngineErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "EngineError";
  }
}

/**
 * Raised before any decoding when prompt + max_tokens do not fit the context. `maxTokens` is undefined when the
 * caller asked for none (the rest of the context) and the prompt leaves no room for one token.
 */
export class ContextOverflowError extends EngineError {
  constructor(
    readonly promptTokens: number,
    readonly maxTokens: number | undefined,
    readonly contextSize: number,
  ) {
    super(
      "context_overflow",
      maxTokens === undefined
        ? `the prompt of ${promptTokens} tokens leaves no room to generate in the context of ${contextSize}`
        : `input length and max_tokens exceed context limit: ${promptTokens} + ${maxTokens} > ${contextSize}`,
    );
    this.name = "ContextOverflowError";
  }
}

/**
 * A template that would run past a limit (steps, output size, recursion, nesting) in llama.cpp's Jinja engine,
 * which has none: refused before that engine runs it. `line` and `column` are 1-based (UTF-16 columns).
 */
export class TemplateLimitError extends EngineError {
  constructor(
    readonly limit: "steps" | "output" | "recursion" | "memory" | "nesting",
    readonly line: number,
    readonly column: number,
    message: string,
  ) {
    super("template_limit", message);
    this.name = "TemplateLimitError";
  }
}

/**
 * A template the guard cannot vouch for, refused before llama.cpp's Jinja engine runs it: a construct known to
 * crash that engine (divisibleby(0): SIGFPE), one whose effect there our port does not reproduce (so what
 * follows it is unchecked), or a check that failed (the guard ran out of memory). `line` and `column` are
 * 1-based (UTF-16 columns); 1, 1 where the check failed as a whole.
 */
export class TemplateRefusedError extends EngineError {
  constructor(
    readonly line: number,
    readonly column: number,
    message: string,
  ) {
    super("template_refused", message);
    this.name = "TemplateRefusedError";
  }
}

/** A GGUF that our own reader rejects, with the byte offset of the problem. */
export class ModelFileError extends EngineError {
  constructor(
    readonly file: string,
    readonly offset: number,
    message: string,
  ) {
    super("invalid_model", message);
    this.name = "ModelFileError";
  }

  static from(e: GGUFError): ModelFileError {
    return new ModelFileError(e.file, e.offset, e.message);
  }
}

const CODES = new Set<string>([
  "invalid_argument",
  "file_not_found",
  "invalid_model",
  "model_mismatch",
  "context_overflow",
  "template_error",
  "decode_error",
]);

/** The addon rejects with plain Errors carrying `code` and numeric fields; this gives them their class. */
export function fromNative(e: unknown): Error {
  if (!(e instanceof Error)) return new Error(String(e));
  const x = e as Error & { code?: string; promptTokens?: number; maxTokens?: number; contextSize?: number };
  if (x.code === "context_overflow" && x.promptTokens !== undefined)
    return new ContextOverflowError(x.promptTokens, x.maxTokens!, x.contextSize!);
  if (x.code && CODES.has(x.code)) return new EngineError(x.code as EngineErrorCode, x.message);
  // argument validation in the binding (TypeError, RangeError) means a caller bug: keep it as it is
  return e;
}
