// A chat request, whichever API it came in: the prompt llama.cpp's chat layer builds from it (what
// llama-server would build), generation, and the assistant message parsed from the output by the
// template's format. Streams get the message as deltas while it is generated.
import type { ChatRequest, GenerateResult, GenerateStats, SamplingOptions, TokenLogprobs } from "../../engine";
import { agentDemoConstraint } from "./agentDemo";
import { SentMessage, type MessageDelta, type MessageOut } from "./chatOutput";
import { generate } from "./generation";
import { describeDivergenceText, describeLoss } from "./promptHistory";
import { noteRequest } from "../http/requestLog";
import { applyWithSystemTurns } from "./systemTurns";
import type { Services } from "../services";

export interface ChatJob {
  api: "openai" | "anthropic";
  request: ChatRequest;
  sampling: SamplingOptions;
  maxTokens?: number;
  /** A max_tokens past the room left is cut to it instead of refused (the OpenAI routes, by default). */
  clampMaxTokens?: boolean;
  stop: string[];
  ignoreEos?: boolean;
  /** The request's own template (`chat_template`, as vLLM takes it) instead of the served one: A/B of templates on one model. */
  chatTemplate?: string;
  /** Prefix of generated tool-call ids (call_, toolu_). */
  idPrefix: string;
  signal: AbortSignal;
  /** Called once the request fits and the queue has taken it: a stream may start. */
  onAccepted?: () => void;
  /** Called once the prompt is tokenized, before waiting for the generation slot. */
  onPrompt?: (promptTokens: number) => void;
  /** Streams: how many prompt tokens the KV cache served, before the first deltas (as the final stats will say). */
  onCached?: (cachedTokens: number) => void;
  /** Set for streams. */
  onDeltas?: (d: MessageDelta[]) => void;
  /** Each token's log-probabilities, with that many alternatives. */
  logprobs?: { top: number };
  /** Streams: a token's log-probabilities, before the deltas its text makes. */
  onLogprobs?: (t: TokenLogprobs) => void;
}

export type Finish = "stop" | "length" | "tool_calls" | "abort";

export function finishOf(stopReason: GenerateResult["stopReason"], toolCalls: number): Finish {
  if (stopReason === "abort" || stopReason === "length") return stopReason;
  return toolCalls > 0 ? "tool_calls" : "stop";
}

export interface ChatOutcome {
  message: MessageOut;
  finish: Finish;
  /** The client's stop sequence that ended the output, if one did. */
  stopSequence: string | null;
  stats: GenerateStats;
  /** With job.logprobs. */
  logprobs?: TokenLogprobs[];
}

/** The prompt's token count (what count_tokens answers). */
export async function countChatTokens(services: Services, request: ChatRequest): Promise<number> {
  const { engine, template } = services.model.ready();
  const prompt = await applyWithSystemTurns(template.current(), request);
  return (await engine.tokenize(prompt.prompt)).length;
}

export async function runChat(services: Services, job: ChatJob): Promise<ChatOutcome> {
  const { engine, template } = services.model.ready();
  const chat = job.chatTemplate === undefined ? template.current() : await engine.chatTemplate(job.chatTemplate);
  const prompt = await applyWithSystemTurns(chat, job.request);
  // tool_choice required or named: the chat layer's grammar allows nothing but the call (forced_tool_call.cpp)
  const steered =
    services.model.agentDemo && job.chatTemplate === undefined
      ? await agentDemoConstraint((request) => applyWithSystemTurns(chat, request), job.request)
      : null;
  const text = prompt.prompt;
  const tokens = await engine.tokenize(text);
  job.onPrompt?.(tokens.length);
  const served = { tokens, text, messages: job.request.messages, tools: job.request.tools ?? null };
  const loss = services.promptHistory.compare(served);
  // the engine parses the output in its generation loop; each parse's deltas become the message here
  const message = new SentMessage(job.idPrefix);
  const result = await generate(engine, services.queue, tokens, {
    ...job.sampling,
    maxTokens: job.maxTokens,
    clampMaxTokens: job.clampMaxTokens,
    onAccepted: job.onAccepted,
    stop: job.stop,
    ignoreEos: job.ignoreEos,
    chat: steered ?? prompt,
    parseMessage: true,
    signal: job.signal,
    logprobs: job.logprobs,
    onToken:
      job.onDeltas &&
      ((e) => {
        job.onCached?.(e.cachedTokens);
        if (e.logprobs) job.onLogprobs?.(e.logprobs);
        if (e.deltas) job.onDeltas!(message.add(e.deltas));
      }),
  });
  // what the context holds now: the next turn of this conversation should start with all of it
  services.promptHistory.remember({ ...served, tokens: [...tokens, ...result.tokens], text: text + result.text });
  if (loss) {
    noteRequest(describeLoss(result.stats.cachedTokens, loss));
    if (loss.divergence) {
      services.metrics.countDivergence(loss.divergence.cause);
      if (services.config.verbose) services.log(describeDivergenceText(loss.divergence));
    }
  }
  if (result.stopReason !== "abort") {
    if (result.messageError) throw result.messageError;
    const last = message.add(result.messageDeltas ?? []);
    if (last.length) job.onDeltas?.(last);
  }
  const stopSequence = result.stopReason === "stop" && job.stop.includes(result.stopString ?? "") ? result.stopString : null;
  const finish = finishOf(result.stopReason, message.sent.toolCalls.length);
  services.metrics.recordGeneration(job.api, finish, result.stats);
  return { message: message.sent, finish, stopSequence, stats: result.stats, logprobs: result.logprobs };
}
