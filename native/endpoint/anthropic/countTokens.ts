// POST /v1/messages/count_tokens: the prompt the same request would generate from, in tokens (without the billing
// header it would drop, so the count matches what generation prefills).
import { countChatTokens } from "../chat/chat";
import { sendJson, type RouteContext } from "../http/route";
import { parseMessagesRequest } from "./request";

export async function countTokens(ctx: RouteContext): Promise<void> {
  const p = parseMessagesRequest(await ctx.body(), "count", { keepBillingHeader: ctx.services.config.keepClientBillingHeader });
  sendJson(ctx.res, 200, { input_tokens: await countChatTokens(ctx.services, p.request) });
}
