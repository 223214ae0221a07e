// A POST /v1/responses body → the chat request the OpenAI chat route would build: `instructions` become the
// system message, `input` items the messages (a function_call joins the assistant message before it, a
// reasoning item's summary becomes the next assistant message's reasoning_content), function tools the chat
// layer's tools. What this endpoint cannot do is a 400 naming the field; tools of other kinds (web search,
// hosted tools) are left out and noted in the request log, so that a client offering them still works.
import type { ChatRequest, SamplingOptions } from "../../engine";
import { badRequest } from "../http/errors";
import { Fields, wrongType } from "../http/fields";
import { llamaParams, refuseUnsupported, type LlamaParams } from "../llama/llamaParams";

export interface ResponsesParams {
  stream: boolean;
  /** The conversation without `instructions`, which a later response does not inherit. */
  conversation: unknown[];
  instructions?: string;
  request: ChatRequest;
  sampling: SamplingOptions;
  maxTokens?: number;
  store: boolean;
  previousResponseId?: string;
  /** Echoed in the response object. */
  echo: Record<string, unknown>;
  /** Tools left out, as "tools[2] (web_search)". */
  leftOut: string[];
  llama: LlamaParams;
}

const UNSUPPORTED = {
  background: { accepts: (v: unknown) => v === false, hint: "responses are generated while the request waits" },
  conversation: { hint: "use previous_response_id" },
  prompt: { hint: "send the instructions and input themselves" },
  truncation: { accepts: (v: unknown) => v === "disabled", hint: "a conversation that does not fit is refused" },
};

/** An input message's text: a string, or its input_text/output_text parts joined. */
function messageText(m: Fields): string {
  const content = m.need("content", m.raw);
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) throw wrongType(m.at("content"), "a string or an array of content parts", content);
  return m
    .objects("content")!
    .map((part) => {
      const type = part.need("type", part.string);
      if (type === "input_text" || type === "output_text") return part.need("text", part.string);
      if (type === "refusal") return part.need("refusal", part.string);
      throw badRequest(`'${type}' parts are not supported: the served model reads text only`, part.at("type"));
    })
    .join("");
}

/** A function_call_output's output: a string or input_text parts. */
function outputText(item: Fields): string {
  const output = item.need("output", item.raw);
  if (typeof output === "string") return output;
  if (!Array.isArray(output)) throw wrongType(item.at("output"), "a string or an array of content parts", output);
  return messageText(Fields.of({ content: output }, item.path));
}

const ROLES = new Set(["user", "system", "developer", "assistant"]);

/** The input items as chat messages. */
export function messagesOf(f: Fields): unknown[] {
  const input = f.need("input", f.raw);
  if (typeof input === "string") return [{ role: "user", content: input }];
  if (!Array.isArray(input)) throw wrongType(["input"], "a string or an array of input items", input);
  const messages: Record<string, unknown>[] = [];
  let reasoning = "";
  /** The assistant message a function_call joins: the last message, when it is the assistant's. */
  const assistant = () => {
    const last = messages.at(-1);
    if (last?.role === "assistant") return last;
    const m: Record<string, unknown> = { role: "assistant", content: "" };
    messages.push(m);
    return m;
  };
  const withReasoning = (m: Record<string, unknown>) => {
    if (reasoning) m.reasoning_content = reasoning;
    reasoning = "";
    return m;
  };
  for (const item of f.objects("input")!) {
    const type = item.string("type") ?? "message";
    if (type === "message") {
      const role = item.need("role", item.string);
      if (!ROLES.has(role)) throw badRequest(`must be one of ${[...ROLES].join(", ")}, got '${role}'`, item.at("role"));
      const content = messageText(item);
      messages.push(role === "assistant" ? withReasoning({ role, content }) : { role, content });
    } else if (type === "function_call") {
      const call = {
        id: item.need("call_id", item.string),
        type: "function",
        function: { name: item.need("name", item.string), arguments: item.need("arguments", item.string) },
      };
      const m = withReasoning(assistant());
      m.tool_calls = [...((m.tool_calls as unknown[]) ?? []), call];
    } else if (type === "function_call_output") {
      messages.push({ role: "tool", tool_call_id: item.need("call_id", item.string), content: outputText(item) });
    } else if (type === "reasoning") {
      // the summary is what this endpoint sends back; encrypted_content is another server's and means nothing here
      reasoning += (item.objects("summary") ?? []).map((s) => s.need("text", s.string)).join("\n");
    } else {
      throw badRequest(
        `'${type}' items are not supported: send message, function_call, function_call_output or reasoning items`,
        item.at("type"),
      );
    }
  }
  return messages;
}

interface ToolsOf {
  tools?: unknown[];
  leftOut: string[];
}

/** Function tools in the chat layer's shape; the others are left out. */
function toolsOf(f: Fields): ToolsOf {
  const leftOut: string[] = [];
  const tools = f.objects("tools")?.flatMap((t, i) => {
    const type = t.need("type", t.string);
    if (type !== "function") {
      leftOut.push(`tools[${i}] (${type})`);
      return [];
    }
    const parameters = t.object("parameters")?.value ?? { type: "object", properties: {} };
    return [{ type: "function", function: { name: t.need("name", t.string), description: t.string("description"), parameters } }];
  });
  return { tools: tools?.length ? tools : undefined, leftOut };
}

function toolChoice(f: Fields): ChatRequest["tool_choice"] {
  const v = f.raw("tool_choice");
  if (v === undefined) return undefined;
  if (v === "auto" || v === "none" || v === "required") return v;
  const choice = f.object("tool_choice");
  if (choice?.string("type") === "function") return { type: "function", function: { name: choice.need("name", choice.string) } };
  throw badRequest(`must be "auto", "none", "required" or {"type": "function", "name": …}, got ${JSON.stringify(v)}`, ["tool_choice"]);
}

/** `text.format`: text, json_object, or json_schema with its schema at the top level (not under json_schema). */
function responseFormat(f: Fields): ChatRequest["response_format"] {
  const format = f.object("text")?.object("format");
  if (!format) return undefined;
  const type = format.need("type", format.string);
  if (type === "text" || type === "json_object") return { type };
  if (type === "json_schema") return { type, json_schema: { schema: format.need("schema", format.object).value } };
  throw badRequest(`must be "text", "json_object" or "json_schema", got '${type}'`, format.at("type"));
}

export function parseResponsesRequest(body: unknown): ResponsesParams {
  const f = Fields.of(body, []);
  // any model name is accepted, as on the other routes: one model is served
  f.string("model");
  refuseUnsupported(f, UNSUPPORTED);
  const instructions = f.string("instructions");
  const conversation = messagesOf(f);
  const { tools, leftOut } = toolsOf(f);
  const reasoning = f.object("reasoning");
  f.array("include");
  const store = f.boolean("store") ?? false;
  const echo = {
    instructions: instructions ?? null,
    metadata: f.object("metadata")?.value ?? {},
    parallel_tool_calls: f.boolean("parallel_tool_calls") ?? true,
    temperature: f.number("temperature", 0, 2) ?? null,
    top_p: f.number("top_p", 0, 1) ?? null,
    max_output_tokens: f.integer("max_output_tokens", 1) ?? null,
    tool_choice: f.raw("tool_choice") ?? "auto",
    tools: f.array("tools") ?? [],
    reasoning: { effort: reasoning?.string("effort") ?? null, summary: reasoning?.string("summary") ?? null },
    text: { format: f.object("text")?.object("format")?.value ?? { type: "text" } },
    store,
    truncation: "disabled",
  };
  return {
    stream: f.boolean("stream") ?? false,
    conversation,
    instructions,
    request: {
      messages: instructions ? [{ role: "system", content: instructions }, ...conversation] : conversation,
      tools,
      tool_choice: tools ? toolChoice(f) : undefined,
      parallel_tool_calls: f.boolean("parallel_tool_calls"),
      response_format: responseFormat(f),
      reasoning_effort: reasoning?.string("effort"),
    },
    sampling: { temperature: f.number("temperature", 0, 2), topP: f.number("top_p", 0, 1) },
    maxTokens: f.integer("max_output_tokens", 1),
    store,
    previousResponseId: f.string("previous_response_id"),
    echo,
    leftOut,
    llama: llamaParams(f),
  };
}
