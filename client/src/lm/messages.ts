// VS Code's chat messages and tools → an OpenAI chat-completions request, without importing vscode: the
// parts are told apart by their fields (a text part has `value`, a tool call `callId`, `name` and `input`,
// a tool result `callId` and `content`, a data part `mimeType` and `data`), which is what the classes
// of the language model API carry.

/** LanguageModelChatMessageRole's values, plus System (3), which VS Code's chat sends though the enum lacks it. */
const ROLE = { 1: "user", 2: "assistant", 3: "system" } as const;

/** LanguageModelChatToolMode.Required. */
const TOOL_MODE_REQUIRED = 2;

export interface ChatMessageLike {
  role: number;
  content: ReadonlyArray<unknown>;
}

export interface ChatToolLike {
  name: string;
  description: string;
  inputSchema?: object;
}

export interface RequestOptionsLike {
  tools?: readonly ChatToolLike[];
  toolMode?: number;
  modelOptions?: { readonly [name: string]: unknown };
}

export interface OpenAIToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export type OpenAIMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string; tool_calls?: OpenAIToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

type Part =
  | { kind: "text"; text: string }
  | { kind: "call"; callId: string; name: string; input: object }
  | { kind: "result"; callId: string; content: ReadonlyArray<unknown> }
  | { kind: "skip" };

const TEXT_MIME = /^(text\/|application\/(json|.*\+json)$)/;

function classify(p: unknown): Part {
  const o = p as Record<string, unknown>;
  if (typeof o !== "object" || o === null) return typeof p === "string" ? { kind: "text", text: p } : { kind: "skip" };
  if (typeof o.callId === "string" && typeof o.name === "string" && typeof o.input === "object") {
    return { kind: "call", callId: o.callId, name: o.name, input: o.input as object };
  }
  if (typeof o.callId === "string" && Array.isArray(o.content)) return { kind: "result", callId: o.callId, content: o.content };
  if (typeof o.value === "string") return { kind: "text", text: o.value };
  if (typeof o.mimeType === "string" && o.data instanceof Uint8Array) {
    if (TEXT_MIME.test(o.mimeType)) return { kind: "text", text: new TextDecoder().decode(o.data) };
    if (o.mimeType.startsWith("image/")) throw new Error("this model reads text only: an image cannot be sent to it");
  }
  // anything else (prompt-tsx values, VS Code's cache markers) is not part of what the model reads
  return { kind: "skip" };
}

const textOf = (parts: ReadonlyArray<unknown>) =>
  parts
    .map(classify)
    .map((p) => (p.kind === "text" ? p.text : ""))
    .join("");

/** One VS Code message → OpenAI messages: a user message's tool results become tool messages ahead of its text. */
export function toOpenAIMessages(messages: readonly ChatMessageLike[]): OpenAIMessage[] {
  return messages.flatMap((m): OpenAIMessage[] => {
    const role = ROLE[m.role as keyof typeof ROLE];
    if (!role) throw new Error(`unknown chat message role ${m.role}`);
    const parts = m.content.map(classify);
    const text = parts.map((p) => (p.kind === "text" ? p.text : "")).join("");
    if (role === "assistant") {
      const calls = parts.flatMap((p) =>
        p.kind === "call"
          ? [{ id: p.callId, type: "function" as const, function: { name: p.name, arguments: JSON.stringify(p.input) } }]
          : [],
      );
      return [{ role, content: text, ...(calls.length ? { tool_calls: calls } : {}) }];
    }
    const results = parts.flatMap((p) =>
      p.kind === "result" ? [{ role: "tool" as const, tool_call_id: p.callId, content: textOf(p.content) }] : [],
    );
    return [...results, ...(text || !results.length ? [{ role, content: text }] : [])];
  });
}

/** The fields of modelOptions passed on to the endpoint; others are VS Code's or another vendor's. */
const MODEL_OPTIONS = ["temperature", "top_p", "top_k", "min_p", "seed", "max_tokens", "stop", "presence_penalty", "frequency_penalty"];

export function toChatRequest(model: string, messages: readonly ChatMessageLike[], options: RequestOptionsLike): Record<string, unknown> {
  const tools = (options.tools ?? []).map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.inputSchema ?? { type: "object", properties: {} } },
  }));
  const passed = Object.entries(options.modelOptions ?? {}).filter(([k]) => MODEL_OPTIONS.includes(k));
  return {
    ...Object.fromEntries(passed),
    model,
    messages: toOpenAIMessages(messages),
    ...(tools.length ? { tools, ...(options.toolMode === TOOL_MODE_REQUIRED ? { tool_choice: "required" } : {}) } : {}),
    stream: true,
  };
}

/** The text a token count is asked for: a string, or a message's text, calls and results in one string. */
export function countableText(input: string | ChatMessageLike): string {
  if (typeof input === "string") return input;
  return input.content
    .map(classify)
    .map((p) =>
      p.kind === "text"
        ? p.text
        : p.kind === "call"
          ? `${p.name}(${JSON.stringify(p.input)})`
          : p.kind === "result"
            ? textOf(p.content)
            : "",
    )
    .join("\n");
}
