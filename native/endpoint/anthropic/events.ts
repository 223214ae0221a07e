// Anthropic's stream: message_start, ping, then per content block content_block_start, its deltas
// (thinking_delta, text_delta, input_json_delta) and content_block_stop, then message_delta with the stop
// reason and usage, and message_stop. A block closes when output of another kind begins. A stream silent for
// the ping interval (a long prefill) gets Anthropic's own `event: ping` (starting the message if need be), which
// the SDKs parse and skip, rather than a comment their idle guards do not see.
import type { GenerateStats } from "../../engine";
import type { Finish } from "../chat/chat";
import type { MessageDelta } from "../chat/chatOutput";
import { dflashHeaders, timings } from "../llama/dflash";
import type { SseStream } from "../http/sse";
import { stopReason, usage } from "./content";

type BlockKind = "thinking" | "text" | "tool_use";

export class MessageEventWriter {
  private started = false;
  private open: { kind: BlockKind; toolIndex: number } | null = null;
  private blocks = 0;
  promptTokens = 0;
  cachedTokens = 0;

  constructor(
    private readonly sse: SseStream,
    private readonly meta: { id: string; model: string },
  ) {
    sse.keepAlive = () => {
      if (!this.started) return this.start();
      this.event("ping", {});
    };
  }

  private event(type: string, data: object): void {
    this.sse.send({ type, ...data }, type);
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    const message = {
      id: this.meta.id,
      type: "message",
      role: "assistant",
      model: this.meta.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
    };
    // the prompt's split into cache reads and the rest is the one message_delta's usage repeats
    this.event("message_start", {
      message: { ...message, usage: usage({ promptTokens: this.promptTokens, cachedTokens: this.cachedTokens, generatedTokens: 0 }) },
    });
    this.event("ping", {});
  }

  private close(): void {
    if (!this.open) return;
    this.event("content_block_stop", { index: this.blocks - 1 });
    this.open = null;
  }

  private openBlock(kind: BlockKind, block: object, toolIndex = -1): void {
    this.close();
    this.event("content_block_start", { index: this.blocks, content_block: block });
    this.open = { kind, toolIndex };
    this.blocks++;
  }

  private blockDelta(delta: object): void {
    this.event("content_block_delta", { index: this.blocks - 1, delta });
  }

  delta(d: MessageDelta): void {
    this.start();
    if (d.kind === "reasoning") {
      if (this.open?.kind !== "thinking") this.openBlock("thinking", { type: "thinking", thinking: "", signature: "" });
      return this.blockDelta({ type: "thinking_delta", thinking: d.text });
    }
    if (d.kind === "content") {
      if (this.open?.kind !== "text") this.openBlock("text", { type: "text", text: "" });
      return this.blockDelta({ type: "text_delta", text: d.text });
    }
    if (d.start) this.openBlock("tool_use", { type: "tool_use", id: d.id, name: d.name, input: {} }, d.index);
    // the parser completes one call before it starts the next, so arguments go to the open block
    if (d.arguments && this.open?.kind === "tool_use" && this.open.toolIndex === d.index)
      this.blockDelta({ type: "input_json_delta", partial_json: d.arguments });
  }

  finish(finish: Finish, stopSequence: string | null, stats: GenerateStats): void {
    if (!this.started) this.cachedTokens = stats.cachedTokens;
    this.start();
    this.close();
    this.event("message_delta", {
      delta: { stop_reason: stopReason(finish, stopSequence), stop_sequence: stopSequence },
      usage: usage(stats),
      timings: timings(stats),
    });
    this.event("message_stop", {});
    this.sse.end(dflashHeaders(stats));
  }
}
