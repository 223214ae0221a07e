// OpenAI's error envelope: {"error": {"message", "type", "param", "code"}}, with llama-server's type names.
import type { ApiError, ErrorKind } from "../errors";

const TYPES: Record<ErrorKind, string> = {
  invalid_request: "invalid_request_error",
  authentication: "authentication_error",
  permission: "permission_error",
  not_found: "not_found_error",
  too_large: "invalid_request_error",
  rate_limit: "rate_limit_error",
  unavailable: "unavailable_error",
  server: "server_error",
};

export function openaiError(e: ApiError): object {
  return { error: { message: e.message, type: TYPES[e.kind], param: e.param, code: e.code } };
}
