// Model output → the assistant message, as llama.cpp's parser for the prompt's format reads it, and the
// deltas a stream sends. The parse lives in the native side with the text (ChatOutputStream): each wake-up
// hands it the new text and gets back what that adds to what was sent. Nothing sent is ever taken back, so
// a stream and the final message always agree.
import { randomBytes } from "node:crypto";
import { type ChatPrompt, ChatOutputStream, type OutputDelta } from "../engine";

export interface ToolCallOut {
  id: string;
  name: string;
  arguments: string;
}

export interface MessageOut {
  reasoning: string;
  content: string;
  toolCalls: ToolCallOut[];
}

export type MessageDelta =
  | { kind: "reasoning"; text: string }
  | { kind: "content"; text: string }
  /** `start`: the call's first delta (id and name); later ones add to `arguments`. */
  | { kind: "tool_call"; index: number; id: string; name: string; arguments: string; start: boolean };

export const newId = (prefix: string) => prefix + randomBytes(12).toString("hex");

/** The message sent so far, built from the parse's deltas; a call the model gave no id gets one here. */
export class SentMessage {
  readonly sent: MessageOut = { reasoning: "", content: "", toolCalls: [] };

  constructor(private readonly idPrefix: string) {}

  add(deltas: OutputDelta[]): MessageDelta[] {
    return deltas.map((d): MessageDelta => {
      if (d.kind !== "tool_call") {
        this.sent[d.kind] += d.text;
        return { kind: d.kind, text: d.text };
      }
      if (d.start) {
        this.sent.toolCalls[d.index] = { id: d.id || newId(this.idPrefix), name: d.name, arguments: "" };
      }
      const call = this.sent.toolCalls[d.index];
      call.arguments += d.text;
      return { kind: "tool_call", index: d.index, id: call.id, name: call.name, arguments: d.text, start: d.start };
    });
  }
}

/**
 * The share of a stream's time its parses may take at most. Each parse re-reads the whole output (llama.cpp's
 * parser has no incremental mode), so after a parse the next one waits until the parses so far fit this share:
 * a long output's parses then cost time in proportion to the generation, not to the square of its length,
 * and the text that arrives meanwhile goes out in one delta. A wait is 49 times the parse before it (with its
 * trip to the thread pool): none or a millisecond or two on short outputs, more as the output grows.
 */
const PARSE_SHARE = 0.02;

/** Feeds generated text to the parser while generation goes on; parses coalesce when text arrives faster. */
export class IncrementalParser {
  private pending = "";
  private running: Promise<void> | null = null;
  private failure: unknown = null;
  private finishing = false;
  private wake: (() => void) | null = null;
  /** Whether a delta went out: waits between parses start from then. */
  private started = false;
  readonly message: SentMessage;

  /** `stream`: the request's native parse (see open()). */
  constructor(
    private readonly stream: Pick<ChatOutputStream, "append" | "finish">,
    idPrefix: string,
    private readonly onDeltas: (d: MessageDelta[]) => void,
  ) {
    this.message = new SentMessage(idPrefix);
  }

  static async open(prompt: ChatPrompt, idPrefix: string, onDeltas: (d: MessageDelta[]) => void): Promise<IncrementalParser> {
    return new IncrementalParser(await ChatOutputStream.open(prompt), idPrefix, onDeltas);
  }

  get sent(): MessageOut {
    return this.message.sent;
  }

  push(text: string): void {
    if (!text) return;
    this.pending += text;
    this.running ??= this.pump();
  }

  /** The final message. `complete`: the output ended on its own (not cut off by max_tokens or an abort). */
  async finish(fullText: string, complete: boolean): Promise<MessageOut> {
    // the final parse reads all of the text: no partial parse waits for it
    this.finishing = true;
    this.wake?.();
    await this.running;
    if (this.failure) throw this.failure;
    this.emit(await this.stream.finish(fullText, complete));
    return this.sent;
  }

  private async pump(): Promise<void> {
    try {
      while (this.pending && !this.finishing) {
        const text = this.pending;
        this.pending = "";
        const started = performance.now();
        this.emit(await this.stream.append(text));
        // Until the first delta goes out nothing waits: the client's time to first token (and a cancel it sends
        // on seeing it) matters more than the parses of a still short output.
        if (this.started) await this.pause((performance.now() - started) * (1 / PARSE_SHARE - 1));
      }
    } catch (e) {
      this.failure = e;
    } finally {
      this.running = null;
    }
  }

  private pause(ms: number): Promise<void> {
    if (ms < 1 || this.finishing) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => (this.wake = null));
  }

  private emit(d: OutputDelta[]): void {
    if (!d.length) return;
    this.started = true;
    this.onDeltas(this.message.add(d));
  }
}
