// The template contexts llama.cpp's chat layer renders (common/chat.cpp, v0.5.0): what
// common_chat_templates_apply_jinja makes of a request's inputs (content normalized for the template's
// caps, the workarounds, the extra variables) and what common_chat_template_direct_apply_impl puts in
// the context from them. Only the generic path: the hand-written handlers of a few vendor formats
// (common_chat_try_specialized_template) reshape messages further before rendering the same template.
import type { Caps } from "../caps/capsProbe";

type Json = unknown;
type Message = Record<string, Json>;

/** ChatTemplates::template_inputs: what apply() hands the chat layer. */
export interface TemplateInputs {
  /** common_chat_msg::to_json_oaicompat of each message. */
  messages: Message[];
  /** common_chat_tools_to_json_oaicompat: null without tools. */
  tools: Json[] | null;
  add_generation_prompt: boolean;
  continue_final_message: boolean;
  enable_thinking: boolean;
  chat_template_kwargs: Record<string, Json>;
}

/** One template as the chat layer holds it: its text, the caps its probe inferred, the bos/eos text. */
export interface ServedTemplate {
  source: string;
  caps: Caps;
  bos: string;
  eos: string;
}

/** autoparser::generation_params, the part that reaches the context. */
export interface RenderParams {
  messages: Json[];
  tools: Json[] | null;
  addGenerationPrompt: boolean;
  enableThinking: boolean;
  extra: Record<string, Json>;
}

const STEPFUN = "You have access to the following functions in JSONSchema format";
/** The sources llama.cpp's LFM2 and LFM2.5 handlers take (is_lfm2_template, and "List of tools: [" without its tokens). */
function isLfm2(source: string): boolean {
  const listTokens = source.includes("<|tool_list_start|>");
  return (listTokens && source.includes("<|tool_list_end|>")) || (!listTokens && source.includes("List of tools: ["));
}
const C_SPACE = /^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** messages_inp_normalizer: content as the only shape the template takes (a string, or text parts). */
function normalize(messages: Json[], caps: Caps): Json[] {
  const onlyString = caps.supports_string_content && !caps.supports_typed_content;
  const onlyTyped = !caps.supports_string_content && caps.supports_typed_content;
  if (!onlyString && !onlyTyped) return messages;
  return messages.map((m) => {
    const msg = m as Message;
    if (!("content" in msg)) return msg;
    if (onlyTyped && typeof msg.content === "string") return { ...msg, content: [{ type: "text", text: msg.content }] };
    if (onlyString && Array.isArray(msg.content)) return { ...msg, content: joinParts(msg.content as Message[]) };
    return msg;
  });
}

/** concat_content_parts: text parts joined by newlines, none around a media marker. */
function joinParts(parts: Message[]): string {
  let text = "";
  let afterMarker = false;
  for (const part of parts) {
    if (part.type === "text") {
      if (!afterMarker && text) text += "\n";
      afterMarker = false;
    } else if (part.type === "media_marker") {
      afterMarker = true;
    } else {
      continue;
    }
    text += typeof part.text === "string" ? part.text : "";
  }
  return text;
}

/** workaround::trim_all_content (StepFun), then to_json_oaicompat's omission of empty reasoning. */
function trimmed(m: Message): Message {
  const out: Message = { ...m };
  if (typeof out.content === "string") out.content = out.content.replace(C_SPACE, "");
  else if (Array.isArray(out.content))
    out.content = (out.content as Message[]).map((p) => (p.type === "text" ? { ...p, text: String(p.text).replace(C_SPACE, "") } : p));
  if (typeof out.reasoning_content === "string") {
    out.reasoning_content = out.reasoning_content.replace(C_SPACE, "");
    if (out.reasoning_content === "") delete out.reasoning_content;
  }
  return out;
}

/** workaround::system_message_not_supported: the system prompt merged into the next message; throws where llama.cpp's get<string> does. */
function mergeSystem(messages: Message[]): Message[] {
  if (messages[0]?.role !== "system") return messages;
  if (messages.length === 1) return [];
  const [first, second] = messages;
  if (typeof first.content !== "string" || typeof second.content !== "string") throw new Error("content is not a string");
  return [{ ...second, content: `${first.content}\n${second.content}` }, ...messages.slice(2)];
}

/** workaround::func_args_not_string: JSON-string arguments parsed, for templates that read them as objects. */
function parsedArguments(m: Message): Message {
  if (!Array.isArray(m.tool_calls)) return m;
  const calls = (m.tool_calls as Message[]).map((tc) => {
    const fn = tc.function as Message | undefined;
    if (!fn || typeof fn.arguments !== "string") return tc;
    return { ...tc, function: { ...fn, arguments: JSON.parse(fn.arguments) as Json } };
  });
  return { ...m, tool_calls: calls };
}

/** common_chat_extra_context: today's date in the two formats Llama templates read. */
function extraContext(now: Date): Record<string, Json> {
  const dd = String(now.getDate()).padStart(2, "0");
  const mon = MONTHS[now.getMonth()];
  return { datetime: `${mon} ${dd} ${now.getFullYear()}`, date_string: `${dd} ${mon} ${now.getFullYear()}` };
}

/** common_chat_template_direct_apply_impl's context: inputs first, then caps_apply_* variables, which the inputs override. */
export function directContext(t: ServedTemplate, p: RenderParams): Record<string, Json> {
  const inp: Record<string, Json> = {
    messages: normalize(p.messages, t.caps),
    bos_token: t.bos,
    eos_token: t.eos,
    enable_thinking: p.enableThinking,
  };
  if (p.tools?.length) inp.tools = p.tools;
  Object.assign(inp, p.extra);
  if (p.addGenerationPrompt) inp.add_generation_prompt = true;
  const set: Record<string, Json> = {};
  if (typeof inp.preserve_reasoning === "boolean") {
    const on = inp.preserve_reasoning;
    Object.assign(set, { preserve_thinking: on, clear_thinking: !on, truncate_history_thinking: !on, drop_thinking: !on });
  }
  if (typeof inp.reasoning_effort === "string")
    Object.assign(set, { reasoning_effort: inp.reasoning_effort, reasoning_strength: inp.reasoning_effort });
  return { ...set, ...inp };
}

/**
 * The contexts llama.cpp renders a request's prompt with: without and with add_generation_prompt
 * (common_chat_template_generation_prompt renders both; the prompt is one of them). null where the
 * chat layer refuses the request before rendering anything.
 */
export function requestContexts(t: ServedTemplate, inputs: TemplateInputs, now: Date): Record<string, Json>[] | null {
  let messages = inputs.messages;
  if (t.source.includes(STEPFUN)) messages = messages.map(trimmed);
  messages = normalize(messages, t.caps) as Message[];
  // a continued final message is not rendered by the template: its text follows the generation prompt
  if (inputs.continue_final_message && messages.length) messages = messages.slice(0, -1);
  if (!t.source.includes("<|channel|>")) messages = messages.map((m) => (m.role === "developer" ? { ...m, role: "system" } : m));
  try {
    if (!t.caps.supports_system_role) messages = mergeSystem(messages);
    if (t.caps.supports_object_arguments) messages = messages.map(parsedArguments);
  } catch {
    return null;
  }
  // the LFM2 handler hands the template each message's reasoning as the `thinking` it reads
  if (isLfm2(t.source))
    messages = messages.map((m) => (typeof m.reasoning_content === "string" ? { ...m, thinking: m.reasoning_content } : m));
  const p: RenderParams = {
    messages,
    tools: inputs.tools,
    addGenerationPrompt: false,
    enableThinking: inputs.enable_thinking,
    extra: { ...extraContext(now), ...inputs.chat_template_kwargs },
  };
  return [directContext(t, p), directContext(t, { ...p, addGenerationPrompt: true })];
}
