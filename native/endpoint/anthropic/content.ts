// The assistant message as Anthropic content blocks and stop reasons.
import type { Finish } from "../chat";
import type { MessageOut } from "../chatOutput";

/** Tool input is JSON the grammar or the parser vouched for; a call cut off by max_tokens may not be. */
export function toolInput(args: string): Record<string, unknown> {
  try {
    const v = JSON.parse(args || "{}");
    return typeof v === "object" && v !== null && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
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
