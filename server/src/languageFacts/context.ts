// What a chat template is rendered with: the variables HF transformers' apply_chat_template passes
// (messages, tools, documents, add_generation_prompt, the tokenizer's special tokens), the common
// model-specific keyword arguments, and the shapes of messages, tool calls, tools and documents
// (OpenAI's chat format, which HF, llama.cpp and the serving stacks all pass through).
import { indexByName, listOf, objectOf, scalar, type FieldFact, type ObjectShape, type ValueType } from "./fact";

const str = scalar("str");
const bool = scalar("bool");
const any = scalar("any");
const strOrNone: ValueType = { kind: "union", of: [str, scalar("none")] };

export const TOOL_CALL_FUNCTION: ObjectShape = {
  name: "ToolCallFunction",
  dict: true,
  fields: [
    { name: "name", type: str, doc: "The name of the tool being called." },
    {
      name: "arguments",
      type: { kind: "union", of: [scalar("dict"), str] },
      doc:
        "The call's arguments. HF transformers passes a dict; OpenAI-style requests carry a JSON string, which some servers " +
        "parse first. Templates that print it should handle both (`arguments is string`, `arguments | tojson`).",
    },
  ],
};

export const TOOL_CALL: ObjectShape = {
  name: "ToolCall",
  dict: true,
  fields: [
    { name: "id", type: str, doc: "The call id, echoed by the tool message's `tool_call_id`." },
    { name: "type", type: str, doc: "Always `'function'`." },
    { name: "function", type: objectOf(TOOL_CALL_FUNCTION), doc: "The called function: `name` and `arguments`." },
  ],
};

export const CONTENT_PART: ObjectShape = {
  name: "ContentPart",
  dict: true,
  fields: [
    { name: "type", type: str, doc: "`'text'`, `'image'`, `'image_url'`, `'audio'`, … — what the part holds." },
    { name: "text", type: str, doc: "The text of a `text` part." },
    { name: "image_url", type: any, doc: "The image of an `image_url` part (`{url: …}`)." },
  ],
};

export const MESSAGE: ObjectShape = {
  name: "Message",
  dict: true,
  fields: [
    { name: "role", type: str, doc: "`'system'`, `'user'`, `'assistant'` or `'tool'` (some models add `'developer'` or `'ipython'`)." },
    {
      name: "content",
      type: { kind: "union", of: [str, listOf(objectOf(CONTENT_PART)), scalar("none")] },
      doc: "The message text, or a list of content parts (`{type: 'text', text: …}`, images) for multimodal input. Often none on an assistant message that only calls tools.",
    },
    { name: "tool_calls", type: listOf(objectOf(TOOL_CALL)), doc: "On an assistant message: the tool calls it made." },
    {
      name: "reasoning_content",
      type: str,
      doc: "On an assistant message: its reasoning (thinking) text, kept apart from `content`. DeepSeek and Qwen templates read it; llama.cpp fills it when it parses reasoning out.",
    },
    {
      name: "reasoning",
      type: str,
      doc: "Another name some templates and servers use for the reasoning text (`reasoning_content` is more common).",
    },
    { name: "thinking", type: str, doc: "The reasoning text as gpt-oss's template names it." },
    { name: "tool_call_id", type: str, doc: "On a tool message: the id of the call this is the result of." },
    { name: "name", type: str, doc: "On a tool message: the tool's name; on other messages an optional participant name." },
  ],
};

export const TOOL_FUNCTION: ObjectShape = {
  name: "ToolFunction",
  dict: true,
  fields: [
    { name: "name", type: str, doc: "The tool's name." },
    { name: "description", type: str, doc: "What the tool does, for the model." },
    { name: "parameters", type: scalar("dict"), doc: "A JSON Schema object describing the arguments (`properties`, `required`)." },
  ],
};

export const TOOL: ObjectShape = {
  name: "Tool",
  dict: true,
  fields: [
    { name: "type", type: str, doc: "Always `'function'`." },
    {
      name: "function",
      type: objectOf(TOOL_FUNCTION),
      doc: "The function's `name`, `description` and `parameters`. Templates often unwrap it first: `{% set tool = tool.function %}`.",
    },
  ],
};

export const DOCUMENT: ObjectShape = {
  name: "Document",
  dict: true,
  fields: [
    { name: "title", type: str, doc: "The document's title." },
    { name: "text", type: str, doc: "The document's text." },
  ],
};

export const CONTEXT_VARIABLES: readonly FieldFact[] = [
  {
    name: "messages",
    type: listOf(objectOf(MESSAGE)),
    doc: "The conversation: a list of messages with `role` and `content`, oldest first.",
  },
  {
    name: "tools",
    type: { kind: "union", of: [listOf(objectOf(TOOL)), scalar("none")] },
    doc:
      "The tools the model may call (OpenAI function schemas), or none when the request has none. " +
      "llama.cpp probes a template with unusual tool lists to infer its capabilities, so iterate defensively: `{% for tool in tools if tool %}`.",
  },
  {
    name: "documents",
    type: { kind: "union", of: [listOf(objectOf(DOCUMENT)), scalar("none")] },
    doc: "Documents for retrieval-augmented generation (dicts, usually with `title` and `text`), or none.",
  },
  {
    name: "add_generation_prompt",
    type: bool,
    doc: "True when the prompt should end with the header of a new assistant turn, so the model answers next.",
  },
  { name: "bos_token", type: str, doc: "The tokenizer's beginning-of-sequence token text, e.g. `<s>` or `<|begin_of_text|>`." },
  { name: "eos_token", type: str, doc: "The tokenizer's end-of-sequence token text, e.g. `</s>` or `<|im_end|>`." },
  { name: "pad_token", type: strOrNone, doc: "The tokenizer's padding token text, when it has one." },
  { name: "unk_token", type: strOrNone, doc: "The tokenizer's unknown-token text, when it has one." },
  {
    name: "enable_thinking",
    type: bool,
    doc:
      "Model-specific (Qwen3 and others): whether the model should reason before answering. Undefined unless the caller passes it " +
      "(`chat_template_kwargs`), so templates test `enable_thinking is defined`.",
  },
  {
    name: "reasoning_effort",
    type: str,
    doc: "Model-specific (gpt-oss and others): `'low'`, `'medium'` or `'high'`. Undefined unless the caller passes it.",
  },
  {
    name: "tool_choice",
    type: any,
    doc: "Passed by some servers from the request: `'auto'`, `'none'`, `'required'`, or a specific function. Undefined otherwise.",
  },
  {
    name: "builtin_tools",
    type: listOf(str),
    doc: "Llama 3.1: names of built-in tools to enable (`'brave_search'`, `'wolfram_alpha'`, `'code_interpreter'`).",
  },
  { name: "custom_tools", type: listOf(objectOf(TOOL)), doc: "Llama 3.x: tools passed under this name instead of `tools`." },
  {
    name: "tools_in_user_message",
    type: bool,
    doc: "Llama 3.x: put the tool definitions in the first user message (the template's default is true).",
  },
  { name: "date_string", type: str, doc: "Llama 3.x: the date shown in the system prompt (the template has a fixed default)." },
];

export const CONTEXT_BY_NAME = indexByName(CONTEXT_VARIABLES);
