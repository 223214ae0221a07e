// POST /v1/messages.
import { runChat } from "../chat/chat";
import { newId } from "../chat/chatOutput";
import { dflashHeaders, timings } from "../llama/dflash";
import { sendJson, type RouteContext } from "../http/route";
import { SseStream } from "../http/sse";
import { contentBlocks, stopReason, usage } from "./content";
import { MessageEventWriter } from "./events";
import { noteRequest } from "../http/requestLog";
import { noteBillingHeadersDropped } from "./billingHeader";
import { parseMessagesRequest } from "./request";

export async function messages(ctx: RouteContext): Promise<void> {
  const p = parseMessagesRequest(await ctx.body(), "generate", { keepBillingHeader: ctx.services.config.keepClientBillingHeader });
  noteBillingHeadersDropped(ctx, p.billingHeadersDropped);
  for (const at of p.leftOut) noteRequest(`${at}: left out of the tool result (the served model reads text only)`);
  const id = newId("msg_");
  const model = ctx.services.model.id;
  const stream = p.stream
    ? new MessageEventWriter(new SseStream(ctx.res, p.llama.ssePingSeconds ?? ctx.services.config.ssePingSeconds), { id, model })
    : null;
  const outcome = await runChat(ctx.services, {
    api: "anthropic",
    request: p.request,
    sampling: p.sampling,
    maxTokens: p.maxTokens,
    stop: p.stop,
    idPrefix: "toolu_",
    signal: ctx.signal,
    onPrompt: stream ? (n) => (stream.promptTokens = n) : undefined,
    onCached: stream ? (n) => (stream.cachedTokens = n) : undefined,
    onDeltas: stream ? (d) => d.forEach((x) => stream.delta(x)) : undefined,
  });
  if (outcome.finish === "abort") return;
  if (stream) return stream.finish(outcome.finish, outcome.stopSequence, outcome.stats);
  sendJson(
    ctx.res,
    200,
    {
      id,
      type: "message",
      role: "assistant",
      model,
      content: contentBlocks(outcome.message),
      stop_reason: stopReason(outcome.finish, outcome.stopSequence),
      stop_sequence: outcome.stopSequence,
      usage: usage(outcome.stats),
      timings: timings(outcome.stats),
    },
    dflashHeaders(outcome.stats),
  );
}
