// POST /v1/messages/count_tokens: the prompt the same request would generate from, in tokens.
import { countChatTokens } from "../chat";
import { sendJson, type RouteContext } from "../route";
import { parseMessagesRequest } from "./request";

export async function countTokens(ctx: RouteContext): Promise<void> {
  const p = parseMessagesRequest(await ctx.body(), "count");
  sendJson(ctx.res, 200, { input_tokens: await countChatTokens(ctx.services, p.request) });
}
