// A scenario read as the chat-completions request llama-server would get, and what llama-server's request
// parsing (ChatTemplates::request in native/src/engine/chat/chat_layer.cpp, which mirrors
// oaicompat_chat_params_parse) and common_chat_msgs_parse_oaicompat / to_json_oaicompat (common/chat.cpp,
// v0.5.0) make of it: the TemplateInputs the chat layer renders from. A scenario is a template context, so
// `messages`, `tools` and `add_generation_prompt` are the request's fields (add_generation_prompt absent
// means false, as in the context: the scenario means the same conversation for every engine), bos_token and
// eos_token are the model's, and every other key is a chat_template_kwargs entry.
import type { TemplateInputs } from "./chatLayerContext";
import type { ServerStartup } from "./serverStartup";

type Json = unknown;
type Obj = Record<string, Json>;

/** The request llama-server refuses (a 400), in its words. */
export class RequestRefused extends Error {}

const MODEL_KEYS = new Set(["bos_token", "eos_token"]);
const REQUEST_KEYS = new Set(["messages", "tools", "add_generation_prompt"]);

const isObj = (v: Json): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const dump = (v: Json) => JSON.stringify(v);

/** check_messages: the shape llama-server accepts before parsing. */
function checkMessages(messages: Json): asserts messages is Json[] {
  if (!Array.isArray(messages)) throw new RequestRefused("'messages' must be an array");
  messages.forEach((m, i) => {
    if (!isObj(m)) throw new RequestRefused(`messages[${i}] must be an object`);
    const role = m.role;
    if (role !== "assistant" && !("content" in m))
      throw new RequestRefused(`messages[${i}]: all non-assistant messages must contain 'content'`);
    if (role === "assistant" && !("content" in m) && !("tool_calls" in m))
      throw new RequestRefused(`messages[${i}]: an assistant message must contain 'content' or 'tool_calls'`);
    const content = m.content;
    if (content === undefined || content === null || typeof content === "string") return;
    if (!Array.isArray(content)) throw new RequestRefused(`messages[${i}].content must be a string or an array`);
    content.forEach((p, j) => {
      if (!isObj(p) || p.type !== "text") throw new RequestRefused(`messages[${i}].content[${j}]: only text parts are supported`);
    });
  });
}

const str = (v: Json, what: string): string => {
  if (typeof v !== "string") throw new RequestRefused(`Failed to parse messages: ${what} must be a string`);
  return v;
};

/** common_chat_msgs_parse_oaicompat then to_json_oaicompat(false): null content becomes "", arguments become JSON text. */
function oaicompatMessage(m: Obj): Obj {
  if (!("role" in m)) throw new RequestRefused(`Failed to parse messages: Missing 'role' in message: ${dump(m)}`);
  const out: Obj = { role: str(m.role, "role") };
  const content = m.content;
  if (typeof content === "string") out.content = content;
  else if (Array.isArray(content) && content.length)
    out.content = (content as Obj[]).map((p) => ({ type: p.type, text: str(p.text, "text") }));
  else out.content = "";
  if (typeof m.reasoning_content === "string" && m.reasoning_content) out.reasoning_content = m.reasoning_content;
  if (m.name !== undefined && str(m.name, "name")) out.name = m.name;
  if (m.tool_call_id !== undefined && str(m.tool_call_id, "tool_call_id")) out.tool_call_id = m.tool_call_id;
  const calls = Array.isArray(m.tool_calls) ? (m.tool_calls as Json[]) : [];
  if (calls.length) out.tool_calls = calls.map(oaicompatCall);
  return out;
}

function oaicompatCall(tc: Json): Obj {
  if (!isObj(tc) || !("type" in tc)) throw new RequestRefused(`Failed to parse messages: Missing tool call type: ${dump(tc)}`);
  if (tc.type !== "function") throw new RequestRefused(`Failed to parse messages: Unsupported tool call type: ${dump(tc)}`);
  const fn = tc.function;
  if (!isObj(fn)) throw new RequestRefused(`Failed to parse messages: Missing tool call function: ${dump(tc)}`);
  if (!("name" in fn)) throw new RequestRefused(`Failed to parse messages: Missing tool call name: ${dump(tc)}`);
  const args = typeof fn.arguments === "string" ? fn.arguments : dump(fn.arguments ?? null);
  const out: Obj = { type: "function", function: { name: str(fn.name, "name"), arguments: args } };
  if (typeof tc.id === "string" && tc.id) out.id = tc.id;
  return out;
}

/** common_chat_tools_parse_oaicompat then common_chat_tools_to_json_oaicompat: null for none. */
function oaicompatTools(tools: Json): Json[] | null {
  if (tools === undefined || tools === null) return null;
  if (!Array.isArray(tools)) throw new RequestRefused("'tools' must be an array");
  const out = tools.map((t) => {
    if (!isObj(t) || t.type !== "function") throw new RequestRefused(`Failed to parse tools: Unsupported tool type: ${dump(t)}`);
    const fn = t.function;
    if (!isObj(fn) || typeof fn.name !== "string") throw new RequestRefused(`Failed to parse tools: Missing tool function: ${dump(t)}`);
    const description = typeof fn.description === "string" ? fn.description : "";
    return { type: "function", function: { name: fn.name, description, parameters: fn.parameters ?? {} } };
  });
  return out.length ? out : null;
}

export interface ChatLayerRequest {
  inputs: TemplateInputs;
  /** The text of the model's bos/eos tokens (the scenario's bos_token/eos_token). */
  bos: string;
  eos: string;
}

/**
 * The request a scenario stands for, to a llama-server started with `startup`. `thinking`: whether the
 * template supports thinking (common_chat_templates_support_enable_thinking), llama-server's enable_thinking
 * unless --reasoning off; a kwarg overrides it.
 */
export function chatLayerRequest(ctx: Obj, thinking: boolean, startup: ServerStartup): ChatLayerRequest {
  checkMessages(ctx.messages);
  const messages = ctx.messages.map((m) => oaicompatMessage(m as Obj));
  const tools = oaicompatTools(ctx.tools);
  let addGenerationPrompt = ctx.add_generation_prompt === true;
  let continueFinal = false;
  // --prefill-assistant (the default): a trailing assistant message is continued, not closed
  if (startup.prefillAssistant && messages.length && messages[messages.length - 1].role === "assistant") {
    if (messages.length >= 2 && messages[messages.length - 2].role === "assistant")
      throw new RequestRefused("cannot have 2 or more assistant messages at the end of the list");
    if (messages[messages.length - 1].tool_calls) throw new RequestRefused("cannot continue an assistant message that contains tool calls");
    continueFinal = true;
    addGenerationPrompt = false;
  }
  // the request's kwargs merged over the server's, key by key
  const kwargs: Obj = { ...startup.templateKwargs };
  for (const [k, v] of Object.entries(ctx)) if (!MODEL_KEYS.has(k) && !REQUEST_KEYS.has(k)) kwargs[k] = v;
  let enableThinking = thinking && !startup.reasoningOff;
  if ("enable_thinking" in kwargs) {
    if (typeof kwargs.enable_thinking !== "boolean") throw new RequestRefused("enable_thinking must be a boolean");
    enableThinking = kwargs.enable_thinking;
  }
  const text = (k: string) => (typeof ctx[k] === "string" ? (ctx[k] as string) : "");
  return {
    inputs: {
      messages,
      tools,
      add_generation_prompt: addGenerationPrompt,
      continue_final_message: continueFinal,
      enable_thinking: enableThinking,
      chat_template_kwargs: kwargs,
    },
    bos: text("bos_token"),
    eos: text("eos_token"),
  };
}
