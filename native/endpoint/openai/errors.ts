// OpenAI's error envelope: {"error": {"message", "type", "param", "code"}}, with llama-server's type names.
import type { ApiError, ContextOverflow, ErrorKind } from "../http/errors";

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

/** OpenAI's wording, counting what the client sent: chat completions ("messages") and legacy completions ("prompt"). */
function overflowMessage({ promptTokens, maxTokens, contextSize }: ContextOverflow, param: string | null): string {
  const limit = `This model's maximum context length is ${contextSize} tokens`;
  if (param === "prompt") {
    return `${limit}, however you requested ${promptTokens + (maxTokens ?? 0)} tokens (${promptTokens} in your prompt; ${maxTokens ?? 0} for the completion). Please reduce your prompt; or completion length.`;
  }
  if (maxTokens === undefined)
    return `${limit}. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`;
  return `${limit}. However, you requested ${promptTokens + maxTokens} tokens (${promptTokens} in the messages, ${maxTokens} in the completion). Please reduce the length of the messages or completion.`;
}

export function openaiError(e: ApiError): { error: { message: string; type: string; param: string | null; code: string | null } } {
  return {
    error: { message: e.overflow ? overflowMessage(e.overflow, e.param) : e.message, type: TYPES[e.kind], param: e.param, code: e.code },
  };
}
