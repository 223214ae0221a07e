// POST /apply-template (llama-server's, a chat-completions body) and POST /v1/messages/apply-template (an
// Anthropic Messages body): the exact prompt that request would generate from, rendered by llama.cpp's chat
// layer with the served template, without generating. `{"prompt"}`, as llama-server answers.
import type { ChatRequest } from "../../engine";
import { parseMessagesRequest } from "../anthropic/request";
import { Fields } from "../http/fields";
import { chatRequestOf } from "../openai/chat";
import { sendJson, type RouteContext } from "../http/route";
import { applyWithSystemTurns } from "./systemTurns";

async function answer(ctx: RouteContext, request: ChatRequest): Promise<void> {
  const prompt = await applyWithSystemTurns(ctx.services.model.ready().template.current(), request);
  sendJson(ctx.res, 200, { prompt: prompt.prompt });
}

export async function applyTemplate(ctx: RouteContext): Promise<void> {
  await answer(ctx, chatRequestOf(Fields.of(await ctx.body(), [])));
}

export async function applyMessagesTemplate(ctx: RouteContext): Promise<void> {
  const keepBillingHeader = ctx.services.config.keepClientBillingHeader;
  await answer(ctx, parseMessagesRequest(await ctx.body(), "count", { keepBillingHeader }).request);
}
