// An Anthropic Messages request → the OpenAI-shaped chat request llama.cpp's chat layer takes. tool_use
// blocks become the assistant's tool_calls and tool_result blocks become tool messages, so the template
// renders a tool conversation as it was trained to; thinking blocks become reasoning_content.
import type { ChatRequest, SamplingOptions } from "../../engine";
import { MAX_INT32 } from "../chat/constraintLimits";
import { badRequest, formatPath } from "../http/errors";
import { dropBillingHeaders } from "./billingHeader";
import { Fields } from "../http/fields";
import { llamaParams, type LlamaParams } from "../llama/llamaParams";
import { checkJsonSchema } from "../chat/schemaCheck";

export interface MessagesParams {
  request: ChatRequest;
  sampling: SamplingOptions;
  maxTokens: number;
  stop: string[];
  stream: boolean;
  llama: LlamaParams;
  /** Where an image or document in a tool result was replaced by a note (`messages[3].content[0].content[1]`). */
  leftOut: string[];
  /** Claude Code's billing-header system blocks left out of the prompt (billingHeader.ts). */
  billingHeadersDropped: number;
}

type Part = { type: "text"; text: string };

const refuse = (block: Fields, type: string) =>
  badRequest(
    `'${type}' blocks are not supported${type === "image" || type === "document" ? ": the served model reads text only" : ""}`,
    block.at("type"),
  );

/**
 * What the model reads instead of an image or document a tool returned (a screenshot, a PDF page): an agent's tools
 * return them unasked, and refusing the request would end the agent's turn.
 */
function leftOutNote(b: Fields, type: string): Part {
  const mediaType = b.object("source")?.string("media_type");
  return {
    type: "text",
    text: `[${type === "image" ? "an image" : "a document"}${mediaType ? ` (${mediaType})` : ""} was left out: the served model reads text only]`,
  };
}

/**
 * A string or text blocks (system prompts, tool results), as content parts. With `leftOut` (tool results), images
 * and documents become notes and their paths are added to it; elsewhere they are refused.
 */
function textParts(f: Fields, key: string, leftOut?: string[]): string | Part[] {
  const v = f.raw(key);
  if (typeof v === "string") return v;
  const blocks = f.objects(key);
  if (!blocks) throw badRequest("must be a string or an array of content blocks", f.at(key));
  return blocks.map((b) => {
    const type = b.need("type", b.string);
    if (leftOut && (type === "image" || type === "document")) {
      leftOut.push(formatPath(b.path));
      return leftOutNote(b, type);
    }
    if (type !== "text") throw refuse(b, type);
    return { type: "text", text: b.need("text", b.string) };
  });
}

function convertMessage(m: Fields, leftOut: string[]): object[] {
  const role = m.need("role", m.string);
  // Claude Code's system reminders; systemTurns.ts renders them in place or merges them into the system prompt
  if (role === "system") return [{ role, content: m.has("content") ? textParts(m, "content") : "" }];
  if (role !== "user" && role !== "assistant") throw badRequest(`must be "user", "assistant" or "system", got '${role}'`, m.at("role"));
  if (typeof m.raw("content") === "string") return [{ role, content: m.raw("content") }];
  const blocks = m.objects("content");
  if (!blocks) throw badRequest("must be a string or an array of content blocks", m.at("content"));
  const text: Part[] = [];
  const toolResults: object[] = [];
  const toolCalls: object[] = [];
  let reasoning = "";
  for (const b of blocks) {
    const type = b.need("type", b.string);
    if (type === "text") text.push({ type: "text", text: b.need("text", b.string) });
    else if (type === "tool_result" && role === "user")
      toolResults.push({
        role: "tool",
        tool_call_id: b.need("tool_use_id", b.string),
        content: b.has("content") ? textParts(b, "content", leftOut) : "",
      });
    else if (type === "tool_use" && role === "assistant") {
      const input = b.need("input", b.object);
      toolCalls.push({
        id: b.need("id", b.string),
        type: "function",
        function: { name: b.need("name", b.string), arguments: JSON.stringify(input.value) },
      });
    } else if (type === "thinking" && role === "assistant") reasoning += b.need("thinking", b.string);
    // its text is encrypted: nothing a template could render
    else if (type === "redacted_thinking" && role === "assistant") continue;
    else if (type === "tool_result" || type === "tool_use" || type === "thinking" || type === "redacted_thinking") {
      throw badRequest(`'${type}' blocks belong in ${type === "tool_result" ? "user" : "assistant"} messages`, b.at("type"));
    } else throw refuse(b, type);
  }
  if (role === "user") return [...toolResults, ...(text.length ? [{ role, content: text }] : [])];
  return [
    { role, content: text, ...(reasoning ? { reasoning_content: reasoning } : {}), ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
  ];
}

function convertTools(f: Fields): object[] | undefined {
  return f.objects("tools")?.map((t) => {
    const type = t.string("type");
    if (type !== undefined && type !== "custom")
      throw badRequest(`server tools ('${type}') are not supported; define the tool with name and input_schema`, t.at("type"));
    const schema = t.need("input_schema", t.object);
    checkJsonSchema(schema.value, schema.path);
    return {
      type: "function",
      function: { name: t.need("name", t.string), description: t.string("description") ?? "", parameters: schema.value },
    };
  });
}

function toolChoice(f: Fields): { choice?: ChatRequest["tool_choice"]; parallel?: boolean } {
  const c = f.object("tool_choice");
  if (!c) return {};
  const parallel = c.boolean("disable_parallel_tool_use") === undefined ? undefined : !c.boolean("disable_parallel_tool_use");
  const type = c.need("type", c.string);
  if (type === "auto") return { choice: "auto", parallel };
  if (type === "none") return { choice: "none", parallel };
  if (type === "any") return { choice: "required", parallel };
  if (type === "tool") return { choice: { type: "function", function: { name: c.need("name", c.string) } }, parallel };
  throw badRequest(`must be "auto", "any", "tool" or "none", got '${type}'`, c.at("type"));
}

/**
 * Anthropic thinks only when asked to; budget_tokens has no equivalent in llama.cpp's sampler. "adaptive" leaves
 * it to the model: the template's own default (llama.cpp turns thinking on where the template supports it).
 */
const THINKING: Record<string, boolean | undefined> = { enabled: true, disabled: false, adaptive: undefined };

/** count_tokens takes the same body without the generation fields. */
export function parseMessagesRequest(
  body: unknown,
  purpose: "generate" | "count",
  options: { keepBillingHeader?: boolean } = {},
): MessagesParams {
  const f = Fields.of(body, []);
  f.need("model", f.string);
  const maxTokens = purpose === "generate" ? f.need("max_tokens", (k) => f.integer(k, 1)) : 0;
  const list = f.need("messages", f.objects);
  if (list.length === 0) throw badRequest("must contain at least one message", ["messages"]);
  const leftOut: string[] = [];
  const converted = [
    ...(f.has("system") ? [{ role: "system", content: textParts(f, "system") }] : []),
    ...list.flatMap((m) => convertMessage(m, leftOut)),
  ];
  const { messages, dropped } = options.keepBillingHeader ? { messages: converted, dropped: 0 } : dropBillingHeaders(converted);
  const tools = convertTools(f);
  const { choice, parallel } = toolChoice(f);
  const llama = llamaParams(f);
  const thinking = f.object("thinking");
  const thinkingType = thinking?.need("type", thinking.string) ?? "disabled";
  if (!Object.hasOwn(THINKING, thinkingType))
    throw badRequest(`must be "enabled", "disabled" or "adaptive", got '${thinkingType}'`, ["thinking", "type"]);
  return {
    request: {
      messages,
      tools,
      tool_choice: choice,
      parallel_tool_calls: parallel,
      enable_thinking: THINKING[thinkingType],
      grammar: llama.grammar,
      json_schema: llama.jsonSchema,
    },
    sampling: { temperature: f.number("temperature", 0, 1), topP: f.number("top_p", 0, 1), topK: f.integer("top_k", 0, MAX_INT32) },
    maxTokens,
    stop: f.array("stop_sequences") ? f.strings("stop_sequences")! : [],
    stream: f.boolean("stream") ?? false,
    llama,
    leftOut,
    billingHeadersDropped: dropped,
  };
}
