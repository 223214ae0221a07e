// Whether one assistant message from the endpoint is a well-formed answer for a live case, and if not,
// what kind of failure it is. The kinds are what goes wrong when a template gives a model poor
// instructions or a server cannot parse what the model wrote.
import type { LiveSpec } from "./liveSpec";

export const FAILURE_KINDS = [
  "no_call",
  "unparsable_call",
  "unknown_tool",
  "invalid_arguments",
  "markup_in_content",
  "reasoning_in_content",
  "request_refused",
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

export const FAILURE_LABELS: Readonly<Record<FailureKind, string>> = {
  no_call: "no call where one was required",
  unparsable_call: "unparsable call",
  unknown_tool: "unknown tool",
  invalid_arguments: "arguments that fail the schema",
  markup_in_content: "markup leaked into content",
  reasoning_in_content: "reasoning leaked into content",
  request_refused: "request refused by the server",
};

/** Text that, seen in `content`, means a call or reasoning the server did not lift out. */
export interface Markers {
  toolCall: readonly string[];
  reasoning: readonly string[];
}

// The call and reasoning markup of the common open-weight formats (Hermes/Qwen, Qwen3-Coder, Llama 3,
// Mistral, DeepSeek, Kimi, GLM, gpt-oss, Seed); a template's own markers are added to these.
export const COMMON_MARKERS: Markers = {
  toolCall: [
    "<tool_call>",
    "</tool_call>",
    "<function=",
    "<|tool_call",
    "[TOOL_CALLS]",
    "<tool_calls>",
    "<|python_tag|>",
    "<｜tool▁call",
    "<|tool_calls_section_begin|>",
    "<arg_key>",
    "<|channel|>commentary",
  ],
  reasoning: ["<think>", "</think>", "[THINK]", "[/THINK]", "<|channel|>analysis", "<seed:think>"],
};

export interface AssistantMessage {
  content?: string | null;
  reasoning_content?: string | null;
  tool_calls?: { id?: string; type?: string; function?: { name?: string; arguments?: string } }[];
}

export type Verdict = { ok: true } | { ok: false; kind: FailureKind; detail: string };

const excerpt = (s: string) => JSON.stringify(s.length > 120 ? s.slice(0, 117) + "…" : s);

export function judgeTurn(message: AssistantMessage, spec: LiveSpec, markers: Markers): Verdict {
  const calls = message.tool_calls ?? [];
  for (const c of calls) {
    const name = c.function?.name ?? "";
    const tool = spec.toolsByName.get(name);
    if (!tool) return { ok: false, kind: "unknown_tool", detail: `called ${excerpt(name)}, which the request did not offer` };
    let args: unknown;
    try {
      args = JSON.parse(c.function?.arguments ?? "");
    } catch {
      return {
        ok: false,
        kind: "unparsable_call",
        detail: `the arguments of ${name} are not JSON: ${excerpt(c.function?.arguments ?? "")}`,
      };
    }
    if (!tool.validate(args)) {
      const why = (tool.validate.errors ?? []).map((e) => `${e.instancePath || "(arguments)"} ${e.message}`).join("; ");
      return { ok: false, kind: "invalid_arguments", detail: `${name}(${excerpt(JSON.stringify(args))}): ${why}` };
    }
  }
  const content = message.content ?? "";
  const markup = markers.toolCall.find((m) => content.includes(m));
  if (markup) return { ok: false, kind: "markup_in_content", detail: `content holds ${excerpt(markup)}: ${excerpt(content)}` };
  const reasoning = markers.reasoning.find((m) => content.includes(m));
  if (reasoning) return { ok: false, kind: "reasoning_in_content", detail: `content holds ${excerpt(reasoning)}: ${excerpt(content)}` };
  if (spec.expectToolCall && !calls.some((c) => c.function?.name === spec.expectToolCall)) {
    return { ok: false, kind: "no_call", detail: `no call of ${spec.expectToolCall}; content ${excerpt(content)}` };
  }
  return { ok: true };
}
