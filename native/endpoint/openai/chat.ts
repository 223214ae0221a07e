// POST /v1/chat/completions.
import type { ChatRequest } from "../../engine";
import { runChat, type ChatOutcome } from "../chat/chat";
import type { MessageDelta } from "../chat/chatOutput";
import { dflashHeaders, timings } from "../llama/dflash";
import { badRequest } from "../http/errors";
import { Fields } from "../http/fields";
import { checkJsonSchema, checkToolSchemas } from "../chat/schemaCheck";
import { sendJson, type RouteContext } from "../http/route";
import { chatLogprobs, chatLogprobsRequest } from "./logprobs";
import { commonParams, usageOf } from "./params";
import { ChatChunkWriter, openResponse } from "./streaming";

const ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);

/** What the chat layer cannot take, refused with the field's location; the rest it validates itself. */
function checkMessages(f: Fields): unknown[] {
  const messages = f.need("messages", f.array);
  if (messages.length === 0) throw badRequest("must contain at least one message", ["messages"]);
  f.objects("messages")!.forEach((m) => {
    const role = m.need("role", m.string);
    if (!ROLES.has(role)) throw badRequest(`must be one of ${[...ROLES].join(", ")}, got '${role}'`, m.at("role"));
    const content = m.raw("content");
    if (content !== undefined && typeof content !== "string" && !Array.isArray(content)) {
      throw badRequest("must be a string or an array of content parts", m.at("content"));
    }
    if (Array.isArray(content)) {
      m.objects("content")!.forEach((part) => {
        const type = part.need("type", part.string);
        if (type === "text") part.need("text", part.string);
        else throw badRequest(`'${type}' parts are not supported: the served model reads text only`, part.at("type"));
      });
    }
  });
  return messages;
}

/** OpenAI's `json_schema.schema`, or llama-server's `schema` beside the type. */
function checkResponseFormat(format: Fields): void {
  if (format.has("schema")) checkJsonSchema(format.raw("schema"), format.at("schema"));
  const named = format.object("json_schema");
  if (named?.has("schema")) checkJsonSchema(named.raw("schema"), named.at("schema"));
}

function toolChoice(f: Fields): ChatRequest["tool_choice"] {
  const v = f.raw("tool_choice");
  if (v === undefined) return undefined;
  if (v === "auto" || v === "none" || v === "required") return v;
  if (typeof v === "string")
    throw badRequest(`must be "auto", "none", "required" or {"type": "function", "function": {"name": …}}, got '${v}'`, ["tool_choice"]);
  const choice = f.need("tool_choice", f.object);
  const fn = choice.need("function", choice.object);
  return { type: "function", function: { name: fn.need("name", fn.string) } };
}

/** The fields that shape the prompt: what a chat request renders (and POST /apply-template shows). */
export function chatRequestOf(f: Fields): ChatRequest {
  const tools = f.objects("tools");
  tools?.forEach((t) => {
    const fn = t.need("function", t.object);
    fn.need("name", fn.string);
  });
  checkToolSchemas(f);
  const choice = toolChoice(f);
  const format = f.object("response_format");
  format?.need("type", format.string);
  if (format) checkResponseFormat(format);
  return {
    messages: checkMessages(f),
    tools: f.array("tools"),
    tool_choice: choice,
    parallel_tool_calls: f.boolean("parallel_tool_calls"),
    response_format: format?.value as ChatRequest["response_format"],
    chat_template_kwargs: f.object("chat_template_kwargs")?.value,
    reasoning_format: f.string("reasoning_format"),
    reasoning_effort: f.string("reasoning_effort"),
  };
}

export function parseChatRequest(body: unknown) {
  const f = Fields.of(body, []);
  const common = commonParams(f);
  const request = chatRequestOf(f);
  const { grammar, jsonSchema } = common.llama;
  const format = request.response_format?.type;
  if (grammar !== undefined && (format === "json_object" || format === "json_schema"))
    throw badRequest("give a grammar or a JSON response_format, not both", ["grammar"]);
  // llama.cpp's chat layer takes them as llama-server does: the output (past any reasoning) must match
  return {
    ...common,
    request: { ...request, grammar, json_schema: jsonSchema },
    chatTemplate: f.string("chat_template"),
    logprobs: chatLogprobsRequest(f),
  };
}

function message(o: ChatOutcome) {
  const m = o.message;
  return {
    role: "assistant",
    content: m.content || (m.toolCalls.length ? null : ""),
    ...(m.reasoning ? { reasoning_content: m.reasoning } : {}),
    ...(m.toolCalls.length
      ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })) }
      : {}),
  };
}

export async function chatCompletions(ctx: RouteContext): Promise<void> {
  const p = parseChatRequest(await ctx.body());
  const { stream, ...meta } = openResponse(ctx, p, { idPrefix: "chatcmpl-", logprobs: p.logprobs !== undefined, writer: ChatChunkWriter });
  const { id, model, created, logprobs: pending } = meta;
  const outcome = await runChat(ctx.services, {
    api: "openai",
    request: p.request,
    chatTemplate: p.chatTemplate,
    sampling: p.sampling,
    maxTokens: p.maxTokens,
    clampMaxTokens: ctx.services.config.maxTokensOverflow === "clamp",
    onAccepted: stream ? () => stream.start() : undefined,
    stop: p.stop,
    ignoreEos: p.ignoreEos,
    idPrefix: "call_",
    signal: ctx.signal,
    onDeltas: stream ? (d: MessageDelta[]) => d.forEach((x) => stream.delta(x)) : undefined,
    logprobs: p.logprobs,
    onLogprobs: pending && ((t) => pending.push(t)),
  });
  if (outcome.finish === "abort") return;
  const finishReason = outcome.finish;
  if (stream) return stream.finish(finishReason, outcome.stats);
  sendJson(
    ctx.res,
    200,
    {
      id,
      object: "chat.completion",
      created,
      model,
      choices: [
        {
          index: 0,
          message: message(outcome),
          finish_reason: finishReason,
          logprobs: outcome.logprobs ? chatLogprobs(outcome.logprobs) : null,
        },
      ],
      usage: usageOf(outcome.stats),
      timings: timings(outcome.stats),
    },
    dflashHeaders(outcome.stats),
  );
}
