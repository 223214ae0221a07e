// The assistant message as Anthropic content blocks and stop reasons.
import { parse } from "jsonc-parser";
import type { Finish } from "../chat/chat";
import type { MessageOut } from "../chat/chatOutput";

/**
 * Tool input is JSON the grammar or the parser vouched for, except in a call cut off by max_tokens: that one is
 * read as far as it goes (`{"command": "ls -la /tm` → {command: "ls -la /tm"}), as the SDKs read a stream's partial
 * input_json_delta, and the answer's stop_reason is max_tokens, so no client takes it for a complete call.
 */
export function toolInput(args: string): Record<string, unknown> {
  const v: unknown = parse(args || "{}", [], { allowTrailingComma: true });
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export function contentBlocks(m: MessageOut): object[] {
  return [
    ...(m.reasoning ? [{ type: "thinking", thinking: m.reasoning, signature: "" }] : []),
    ...(m.content ? [{ type: "text", text: m.content }] : []),
    ...m.toolCalls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: toolInput(c.arguments) })),
  ];
}

export function stopReason(finish: Finish, stopSequence: string | null): string {
  if (finish === "tool_calls") return "tool_use";
  if (finish === "length") return "max_tokens";
  return stopSequence !== null ? "stop_sequence" : "end_turn";
}

/** Anthropic counts cache reads apart from input_tokens: the two add up to the prompt. */
export const usage = (s: { promptTokens: number; cachedTokens: number; generatedTokens: number }) => ({
  input_tokens: s.promptTokens - s.cachedTokens,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: s.cachedTokens,
  output_tokens: s.generatedTokens,
});
