// Anthropic's error envelope: {"type": "error", "error": {"type", "message"}}.
import type { ApiError, ContextOverflow, ErrorKind } from "../http/errors";

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

/**
 * The real API's two overflow messages, word for word: clients match them (Claude Code compacts the conversation
 * on the first and retries with a smaller max_tokens, parsed from the second). One token must be left to generate.
 */
function overflowMessage({ promptTokens, maxTokens, contextSize }: ContextOverflow): string {
  if (maxTokens === undefined || promptTokens >= contextSize)
    return `prompt is too long: ${promptTokens} tokens > ${contextSize - 1} maximum`;
  return `input length and \`max_tokens\` exceed context limit: ${promptTokens} + ${maxTokens} > ${contextSize}, decrease input length or \`max_tokens\` and try again`;
}

export function anthropicError(e: ApiError): { type: "error"; error: { type: string; message: string } } {
  return { type: "error", error: { type: TYPES[e.kind], message: e.overflow ? overflowMessage(e.overflow) : e.message } };
}
