// OpenAI's streamed chunks: chat.completion.chunk deltas (role first, then reasoning_content, content and
// tool_calls as they are parsed), the finish chunk, the usage chunk when stream_options.include_usage
// asks for it, then `data: [DONE]`. The last chunk before usage carries llama-server style timings.
// The first chunk goes out as soon as the queue takes the request (start()), and a stream silent for the ping
// interval (a long prefill, a wait) gets a chunk with an empty delta: SDKs yield it, so idle guards see it.
import type { GenerateStats } from "../../engine";
import { newId, type MessageDelta } from "../chat/chatOutput";
import { dflashHeaders, timings } from "../llama/dflash";
import type { RouteContext } from "../http/route";
import { SseStream } from "../http/sse";
import { chatLogprobs, completionLogprobs, PendingLogprobs } from "./logprobs";
import { type CommonParams, usageOf } from "./params";

interface Meta {
  id: string;
  model: string;
  created: number;
  includeUsage: boolean;
  /** Set when the request asked for logprobs: each chunk carries those of the tokens since the last one. */
  logprobs?: PendingLogprobs;
}

abstract class ChunkWriter {
  constructor(
    protected readonly sse: SseStream,
    protected readonly meta: Meta,
  ) {
    sse.keepAlive = () => this.keepAlive();
  }

  protected abstract readonly object: string;

  /** The first chunk, once the request is accepted. */
  abstract start(): void;

  /** A chunk that adds nothing, for a silent stream. */
  protected abstract keepAlive(): void;

  protected chunk(choices: object[], extra: object = {}): void {
    const { id, model, created, includeUsage } = this.meta;
    this.sse.send({ id, object: this.object, created, model, choices, ...(includeUsage ? { usage: null } : {}), ...extra });
  }

  protected end(finishChoice: object, stats: GenerateStats): void {
    this.chunk([finishChoice], { timings: timings(stats) });
    if (this.meta.includeUsage) {
      const { id, model, created } = this.meta;
      this.sse.send({ id, object: this.object, created, model, choices: [], usage: usageOf(stats) });
    }
    this.sse.send("[DONE]");
    this.sse.end(dflashHeaders(stats));
  }
}

export class ChatChunkWriter extends ChunkWriter {
  protected readonly object = "chat.completion.chunk";
  private announced = false;

  /** The first chunk names the role, as OpenAI's do. */
  start(): void {
    if (this.announced) return;
    this.announced = true;
    this.chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null, logprobs: null }]);
  }

  protected keepAlive(): void {
    if (!this.announced) return this.start();
    this.chunk([{ index: 0, delta: {}, finish_reason: null, logprobs: null }]);
  }

  private send(delta: object): void {
    this.start();
    this.chunk([{ index: 0, delta, finish_reason: null, logprobs: this.logprobs() }]);
  }

  private logprobs() {
    return this.meta.logprobs ? chatLogprobs(this.meta.logprobs.take()) : null;
  }

  delta(d: MessageDelta): void {
    if (d.kind === "content") return this.send({ content: d.text });
    if (d.kind === "reasoning") return this.send({ reasoning_content: d.text });
    const fn = d.start ? { name: d.name, arguments: d.arguments } : { arguments: d.arguments };
    this.send({ tool_calls: [{ index: d.index, ...(d.start ? { id: d.id, type: "function" } : {}), function: fn }] });
  }

  finish(finishReason: string, stats: GenerateStats): void {
    this.start();
    this.end({ index: 0, delta: {}, finish_reason: finishReason, logprobs: this.logprobs() }, stats);
  }
}

export class CompletionChunkWriter extends ChunkWriter {
  protected readonly object = "text_completion";
  private started = false;

  start(): void {
    if (this.started) return;
    this.started = true;
    this.keepAlive();
  }

  protected keepAlive(): void {
    this.chunk([{ index: 0, text: "", logprobs: null, finish_reason: null }]);
  }

  text(text: string): void {
    if (text) this.chunk([{ index: 0, text, logprobs: this.logprobs(), finish_reason: null }]);
  }

  private logprobs() {
    const pending = this.meta.logprobs;
    if (!pending) return null;
    const out = completionLogprobs(pending.take(), pending.offset);
    pending.offset += out.tokens.join("").length;
    return out;
  }

  finish(finishReason: string, stats: GenerateStats): void {
    this.end({ index: 0, text: "", logprobs: this.logprobs(), finish_reason: finishReason }, stats);
  }
}

/**
 * A response's identity (id, model, created), the same in every chunk and in a whole answer, and for a
 * stream its chunk writer on the request's keep-alive interval (or the server's), with the logprobs that
 * wait for the next chunk when the request asked for them.
 */
export function openResponse<W extends ChunkWriter>(
  ctx: RouteContext,
  p: CommonParams,
  options: { idPrefix: string; logprobs: boolean; writer: new (sse: SseStream, meta: Meta) => W },
): Meta & { stream: W | null } {
  const meta: Meta = {
    id: newId(options.idPrefix),
    model: ctx.services.model.id,
    created: Math.floor(Date.now() / 1000),
    includeUsage: p.includeUsage,
    logprobs: p.stream && options.logprobs ? new PendingLogprobs() : undefined,
  };
  const sse = () => new SseStream(ctx.res, p.llama.ssePingSeconds ?? ctx.services.config.ssePingSeconds);
  return { ...meta, stream: p.stream ? new options.writer(sse(), meta) : null };
}
