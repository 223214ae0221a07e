// GET /slots (llama-server's name): the one generation slot, what its context holds, and the prompt cache's
// saved conversations (tokens, bytes, last use), so a client can see why a request was or was not cached.
import { sendJson, type RouteContext } from "../http/route";

export async function slots(ctx: RouteContext): Promise<void> {
  const { engine, info } = ctx.services.model.ready();
  const cache = engine.promptCache();
  sendJson(ctx.res, 200, [
    {
      id: 0,
      n_ctx: info.contextSize,
      is_processing: ctx.services.queue.active > 0,
      cached_tokens: cache.liveTokens,
      prompt_cache: {
        budget_bytes: cache.budgetBytes,
        used_bytes: cache.usedBytes,
        entries: cache.entries.map((e) => ({
          tokens: e.tokens,
          draft_tokens: e.draftTokens,
          bytes: e.bytes,
          last_used: new Date(e.lastUsedMs).toISOString(),
        })),
      },
    },
  ]);
}
