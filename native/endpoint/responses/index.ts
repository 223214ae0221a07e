// POST /v1/responses, OpenAI's Responses API, on the chat pipeline the chat completions route uses (the same
// chat layer, generation, parse, limits and max_tokens policy). Streams open with response.created and
// response.in_progress as soon as the queue takes the request, send `keepalive` events while it is silent (a
// long prefill), and end with response.completed or response.incomplete; an error after the start is told as an
// `error` event and response.failed.
import { runChat, type ChatOutcome } from "../chat/chat";
import { newId } from "../chat/chatOutput";
import { dflashHeaders } from "../llama/dflash";
import { toApiError } from "../http/errors";
import { noteRequest } from "../http/requestLog";
import { sendJson, type RouteContext } from "../http/route";
import { SseStream } from "../http/sse";
import { deltasOf, OutputItems, statusOf, usageOf } from "./output";
import { parseResponsesRequest } from "./request";
import { storeOf } from "./store";

/** The output as the assistant message a later turn (previous_response_id) continues from. */
function assistantMessage(o: ChatOutcome): object {
  const m = o.message;
  return {
    role: "assistant",
    content: m.content,
    ...(m.reasoning ? { reasoning_content: m.reasoning } : {}),
    ...(m.toolCalls.length
      ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })) }
      : {}),
  };
}

export async function responses(ctx: RouteContext): Promise<void> {
  const p = parseResponsesRequest(await ctx.body());
  for (const tool of p.leftOut) noteRequest(`${tool}: left out (only function tools are offered to the model)`);
  const store = storeOf(ctx.services);
  const history = p.previousResponseId === undefined ? [] : store.conversation(p.previousResponseId);
  const conversation = [...history, ...p.conversation];
  const system = p.instructions ? [{ role: "system", content: p.instructions }] : [];
  const id = newId("resp_");
  const base = {
    id,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model: ctx.services.model.id,
    previous_response_id: p.previousResponseId ?? null,
    error: null,
    incomplete_details: null,
    ...p.echo,
  };

  let sequence = 0;
  const sse = p.stream ? new SseStream(ctx.res, p.llama.ssePingSeconds ?? ctx.services.config.ssePingSeconds) : null;
  const send = (type: string, data: object) => sse!.send({ type, ...data, sequence_number: sequence++ }, type);
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    const response = { ...base, status: "in_progress", output: [], usage: null };
    send("response.created", { response });
    send("response.in_progress", { response });
  };
  if (sse) sse.keepAlive = () => (started ? send("keepalive", {}) : start());
  const output = new OutputItems(sse ? send : undefined);

  let outcome: ChatOutcome;
  try {
    outcome = await runChat(ctx.services, {
      api: "openai",
      request: { ...p.request, messages: [...system, ...conversation] },
      sampling: p.sampling,
      maxTokens: p.maxTokens,
      clampMaxTokens: ctx.services.config.maxTokensOverflow === "clamp",
      stop: [],
      idPrefix: "call_",
      signal: ctx.signal,
      onAccepted: sse ? start : undefined,
      onDeltas: sse ? (d) => d.forEach((x) => output.add(x)) : undefined,
    });
  } catch (e) {
    if (!sse?.started) throw e;
    const error = toApiError(e, "input");
    noteRequest(error.message);
    const code = error.code ?? error.kind;
    send("error", { code, message: error.message, param: error.param });
    send("response.failed", {
      response: { ...base, status: "failed", output: output.items, usage: null, error: { code, message: error.message } },
    });
    return sse.end();
  }
  if (outcome.finish === "abort") return;
  if (!sse) deltasOf(outcome.message).forEach((d) => output.add(d));
  const { status, incomplete_details } = statusOf(outcome.finish);
  output.close(status);
  if (p.store) store.save(id, [...conversation, assistantMessage(outcome)]);
  const response = { ...base, status, incomplete_details, output: output.items, usage: usageOf(outcome.stats) };
  if (!sse) return sendJson(ctx.res, 200, response, dflashHeaders(outcome.stats));
  start();
  send(status === "completed" ? "response.completed" : "response.incomplete", { response });
  sse.end(dflashHeaders(outcome.stats));
}
