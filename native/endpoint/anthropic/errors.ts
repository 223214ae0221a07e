// Anthropic's error envelope: {"type": "error", "error": {"type", "message"}}.
import type { ApiError, ErrorKind } from "../errors";

const TYPES: Record<ErrorKind, string> = {
  invalid_request: "invalid_request_error",
  authentication: "authentication_error",
  permission: "permission_error",
  not_found: "not_found_error",
  too_large: "request_too_large",
  rate_limit: "rate_limit_error",
  unavailable: "overloaded_error",
  server: "api_error",
};

export function anthropicError(e: ApiError): object {
  return { type: "error", error: { type: TYPES[e.kind], message: e.message } };
}
