// The errors routes answer with, independent of the API: openai/errors.ts and anthropic/errors.ts write
// them in their own envelopes. Anything that is not an ApiError becomes one here, so no request can
// crash the process or leave a client without an answer.
import { ContextOverflowError, EngineError } from "../../engine";
import { QueueFullError } from "../llama/queue";

export type ErrorKind =
  "invalid_request" | "authentication" | "permission" | "not_found" | "too_large" | "rate_limit" | "unavailable" | "server";

/** A location in the request body: `["messages", 0, "content"]`. */
export type FieldPath = (string | number)[];

/** `messages[0].content`: the location as errors print it (and OpenAI's `param`). */
export function formatPath(path: FieldPath): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i ? `.${p}` : p)).join("");
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly kind: ErrorKind,
    message: string,
    /** The field the error is about. */
    readonly param: string | null = null,
    /** OpenAI's `code` (such as context_length_exceeded). */
    readonly code: string | null = null,
    /** A context overflow's figures, which each API words its own way (openai/errors.ts, anthropic/errors.ts). */
    readonly overflow: ContextOverflow | null = null,
  ) {
    super(message);
  }
}

/** What the client sent (maxTokens undefined: it asked for none) against the context. */
export type ContextOverflow = Pick<ContextOverflowError, "promptTokens" | "maxTokens" | "contextSize">;

/** A 400; with a path, the message is about that field (the body itself for []) and starts with it. */
export function badRequest(message: string, path: FieldPath | null = null, code: string | null = null): ApiError {
  if (path === null) return new ApiError(400, "invalid_request", message, null, code);
  const where = path.length ? formatPath(path) : "request body";
  return new ApiError(400, "invalid_request", `${where}: ${message}`, path.length ? where : null, code);
}

/** promptField: the request field that holds the prompt (OpenAI's `param` of a context overflow). */
export function toApiError(e: unknown, promptField = "messages"): ApiError {
  if (e instanceof ApiError) return e;
  if (e instanceof QueueFullError) return new ApiError(429, "rate_limit", e.message, null, "queue_full");
  if (e instanceof ContextOverflowError) {
    const { promptTokens, maxTokens, contextSize } = e;
    return new ApiError(400, "invalid_request", e.message, promptField, "context_length_exceeded", {
      promptTokens,
      maxTokens,
      contextSize,
    });
  }
  if (e instanceof EngineError) {
    // what the engine refuses about a request (a bad message shape, a template that raises, runs past a limit or
    // that the guard refuses on it) is the client's
    if (e.code === "invalid_argument" || e.code === "template_error" || e.code === "template_limit" || e.code === "template_refused")
      return badRequest(e.message);
    return new ApiError(500, "server", e.message);
  }
  return new ApiError(500, "server", `internal error: ${e instanceof Error ? e.message : String(e)}`);
}
