// The templates llama.cpp's chat layer hands to a hand-written format handler instead of the differential
// autoparser (common_chat_try_specialized_template, common/chat.cpp v0.5.0), in its order, with what each
// handler sets as supports_thinking and how it reshapes the messages it renders (common/parsers/*.cpp).
type Message = Record<string, unknown>;

export interface SpecializedHandler {
  name: string;
  matches(src: string): boolean;
  supportsThinking(src: string): boolean;
  /** The messages the handler renders instead of the chat layer's (its messages_override or workaround). */
  messages?(messages: Message[], src: string): Message[];
  /** What it appends to the prompt for a continued assistant message (its has_continuation() branch). */
  continuation(c: Continuation): string;
}

/** A continued (prefilled) final assistant message, and the prompt before it. */
export interface Continuation {
  reasoning: string;
  /** common_chat_msg::render_content. */
  content: string;
  /** COMMON_CHAT_CONTINUATION_CONTENT (else the reasoning is continued). */
  toContent: boolean;
  /** The render without the generation prompt, and the generation prompt's own text. */
  prompt: string;
  generationPrompt: string;
  src: string;
}

/** The common shape: an opener, the reasoning block, and for content its close and the content. */
const thinkThen =
  (open: string, thinkStart: string, thinkEnd: string) =>
  (c: Continuation): string =>
    open + thinkStart + c.reasoning + (c.toContent ? thinkEnd + c.content : "");
const contentOnly = (open: string) => (c: Continuation) => open + c.content;

const has = (src: string, ...needles: string[]) => needles.every((n) => src.includes(n));
const always = () => true;

/** gpt-oss and LFM2: the reasoning copied to the `thinking` field their templates read (gpt-oss drops a tool call's content). */
const thinkingField =
  (dropCallContent: boolean) =>
  (messages: Message[]): Message[] =>
    messages.map((m) => {
      if (typeof m.reasoning_content !== "string") return m;
      const out: Message = { ...m, thinking: m.reasoning_content };
      if (dropCallContent && Array.isArray(m.tool_calls) && m.tool_calls.length) delete out.content;
      return out;
    });

/** Ministral 3: system and assistant content as blocks, reasoning first as a `thinking` block. */
function ministralBlocks(messages: Message[]): Message[] {
  return messages.map((m) => {
    if (m.role !== "system" && m.role !== "assistant") return m;
    const content: unknown[] = [];
    if (typeof m.reasoning_content === "string") content.push({ type: "thinking", thinking: m.reasoning_content });
    if (typeof m.content === "string") content.push({ type: "text", text: m.content });
    else if (Array.isArray(m.content)) content.push(...(m.content as unknown[]));
    const out: Message = { ...m, content };
    delete out.reasoning_content;
    return out;
  });
}

/** DeepSeek V4: a run of tool results in the order of the calls that asked for them (deepseek_v4_sort_tool_results). */
function sortedToolResults(messages: Message[], src: string): Message[] {
  if (src.includes("function_calls")) return messages;
  const out = [...messages];
  let order = new Map<string, number>();
  for (let i = 0; i < out.length;) {
    const role = out[i].role;
    const calls = out[i].tool_calls;
    if (role === "assistant" && Array.isArray(calls) && calls.length) {
      order = new Map();
      (calls as Message[]).forEach((c, idx) => typeof c.id === "string" && c.id && order.set(c.id, idx));
      i++;
      continue;
    }
    if (role !== "user" && role !== "tool") {
      i++;
      continue;
    }
    const positions: number[] = [];
    let end = i;
    for (; end < out.length; end++) {
      if (out[end].role === "tool") positions.push(end);
      else if (out[end].role !== "user") break;
    }
    if (positions.length > 1 && order.size) {
      const rank = (m: Message) => order.get(typeof m.tool_call_id === "string" ? m.tool_call_id : "") ?? 0;
      const sorted = positions.map((p) => out[p]).sort((a, b) => rank(a) - rank(b));
      positions.forEach((p, k) => (out[p] = sorted[k]));
    }
    i = end;
  }
  return out;
}

const hasCalls = (m: Message) => Array.isArray(m.tool_calls) && m.tool_calls.length > 0;
const hasContent = (m: Message) => (typeof m.content === "string" || Array.isArray(m.content)) && m.content.length > 0;

/** A tool result as gemma 4's tool_responses hold it: the content parsed as JSON where it is JSON. */
function toolResponse(m: Message): unknown {
  if (typeof m.content !== "string") return m.content ?? null;
  try {
    return JSON.parse(m.content) as unknown;
  } catch {
    return m.content;
  }
}

/**
 * Older gemma 4 templates (without the "OpenAI Chat Completions" notes): each assistant turn with tool calls,
 * its tool results and a final answer become one assistant message with `tool_responses`
 * (workaround::convert_tool_responses_gemma4).
 */
function gemma4Messages(messages: Message[], src: string): Message[] {
  if (src.includes("{#- OpenAI Chat Completions:")) return messages;
  const out: Message[] = [];
  for (let i = 0; i < messages.length;) {
    const first = messages[i];
    if (first.role !== "assistant" || !hasCalls(first)) {
      out.push(first);
      i++;
      continue;
    }
    const calls = first.tool_calls as Message[];
    const responses: Message[] = [];
    for (i++; i < messages.length && messages[i].role === "tool"; i++) {
      const fn = calls[responses.length]?.function as Message | undefined;
      const name =
        (typeof fn?.name === "string" && fn.name) || (typeof messages[i].tool_call_id === "string" ? messages[i].tool_call_id : "");
      responses.push({ name, response: toolResponse(messages[i]) });
    }
    const turn: Message = { role: "assistant", tool_calls: calls };
    if (responses.length) turn.tool_responses = responses;
    if (i < messages.length && messages[i].role === "assistant" && !hasCalls(messages[i]) && hasContent(messages[i]))
      turn.content = messages[i++].content;
    if (typeof first.reasoning_content === "string") turn.reasoning_content = first.reasoning_content;
    out.push(turn);
  }
  return out;
}

export const SPECIALIZED_HANDLERS: readonly SpecializedHandler[] = [
  {
    name: "ministral-3",
    matches: (s) => has(s, "[SYSTEM_PROMPT]", "[TOOL_CALLS]", "[ARGS]") && !s.includes("[CALL_ID]"),
    supportsThinking: always,
    messages: ministralBlocks,
    continuation: thinkThen("", "[THINK]", "[/THINK]"),
  },
  {
    name: "gpt-oss",
    matches: (s) => has(s, "<|channel|>"),
    supportsThinking: always,
    messages: thinkingField(true),
    continuation: thinkThen("<|start|>assistant<|channel|>analysis<|message|>", "", "<|end|><|start|>assistant<|channel|>final<|message|>"),
  },
  {
    name: "muse-glimmer",
    matches: (s) => has(s, "<atem:function_calls>", "<|eom|>"),
    supportsThinking: always,
    continuation: thinkThen("<|start|>assistant to=self<|message|>", "", "<|eom|><|start|>assistant to=user<|message|>"),
  },
  {
    name: "functionary-v3.2",
    matches: (s) => has(s, ">>>all", ">>>${recipient}"),
    supportsThinking: () => false,
    continuation: contentOnly("<|start_header_id|>assistant<|end_header_id|>\n\n>>>all\n"),
  },
  {
    name: "kimi-k2",
    matches: (s) => has(s, "<|tool_calls_section_begin|>", "<|tool_call_begin|>"),
    supportsThinking: always,
    continuation: thinkThen("<|im_assistant|>assistant<|im_middle|>", "<think>", "</think>"),
  },
  {
    name: "kimi-k3",
    matches: (s) => has(s, "<|open|>", "<|close|>", "<|end_of_msg|>"),
    supportsThinking: always,
    continuation: thinkThen(
      '<|open|>message role="assistant"<|sep|>',
      "<|open|>think<|sep|>",
      "<|close|>think<|sep|><|open|>response<|sep|>",
    ),
  },
  {
    name: "ling3",
    matches: (s) => has(s, "<role>ASSISTANT</role>", "<arg_key>"),
    supportsThinking: always,
    continuation: thinkThen("<role>ASSISTANT</role>\n", "<think>", "</think>"),
  },
  {
    name: "cohere2moe",
    matches: (s) => has(s, "<|START_TEXT|>", "<|START_ACTION|>"),
    supportsThinking: always,
    continuation: thinkThen("<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>", "<|START_THINKING|>", "<|END_THINKING|><|START_TEXT|>"),
  },
  {
    name: "lfm2",
    matches: (s) => has(s, "<|tool_list_start|>", "<|tool_list_end|>"),
    supportsThinking: always,
    messages: thinkingField(false),
    continuation: thinkThen("<|im_start|>assistant\n", "<think>", "</think>"),
  },
  {
    name: "lfm2.5",
    matches: (s) => has(s, "List of tools: [") && !s.includes("<|tool_list_start|>"),
    supportsThinking: always,
    messages: thinkingField(false),
    continuation: thinkThen("<|im_start|>assistant\n", "<think>", "</think>"),
  },
  {
    name: "gigachat-v3",
    matches: (s) => has(s, "<|role_sep|>", "<|message_sep|>") && !s.includes("<|function_call|>"),
    supportsThinking: () => false,
    continuation: contentOnly("assistant<|role_sep|>\n"),
  },
  {
    name: "minimax-m3",
    matches: (s) => has(s, "]<]minimax[>[", "<tool_call>", "<invoke name="),
    supportsThinking: always,
    continuation: (c) => thinkThen(c.generationPrompt, "<mm:think>", "</mm:think>")(c),
  },
  {
    name: "deepseek-v3.2",
    matches: (s) => has(s, "dsml_token", "DSML") && (s.includes("function_calls") || s.includes("tool_calls")),
    supportsThinking: always,
    messages: sortedToolResults,
    continuation: (c) => {
      const v4 = !c.src.includes("function_calls");
      if (v4 && !c.reasoning) return "<｜Assistant｜></think>" + (c.toContent ? c.content : "");
      return thinkThen("<｜Assistant｜>", "<think>", "</think>")(c);
    },
  },
  {
    name: "gemma4",
    matches: (s) => has(s, "'<|tool_call>call:'"),
    supportsThinking: always,
    messages: gemma4Messages,
    continuation: (c) => thinkThen(c.prompt.endsWith("<turn|>\n") ? "<|turn>model\n" : "", "<|channel>thought\n", "<channel|>")(c),
  },
  {
    name: "minicpm5",
    matches: (s) => has(s, "Tool usage guidelines:", '<function name="', '<param name="'),
    supportsThinking: always,
    continuation: thinkThen("<|im_start|>assistant\n", "<think>\n", "\n</think>\n\n"),
  },
  {
    name: "qwen3-coder",
    matches: (s) => has(s, "<tool_call>", "<function=", "<parameter=") && !s.includes("'<tool_call><function=' ~ tool_call.name ~ '>'"),
    supportsThinking: (s) => s.includes("<think>"),
    continuation: (c) =>
      "<|im_start|>assistant\n" +
      (c.src.includes("<think>") ? "<think>\n" + c.reasoning + (c.toContent ? "\n</think>\n\n" : "") : "") +
      (c.toContent ? c.content : ""),
  },
];

export function specializedHandler(src: string): SpecializedHandler | null {
  return SPECIALIZED_HANDLERS.find((h) => h.matches(src)) ?? null;
}
