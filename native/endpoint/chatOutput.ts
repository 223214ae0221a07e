// Model output → the assistant message, as llama.cpp's parser for the prompt's format reads it, and the
// deltas a stream sends: the text is re-parsed as it grows (partial parses), and each parse is compared
// with what the client has already been sent. Nothing sent is ever taken back, so a stream and the final
// message always agree.
import { randomBytes } from "node:crypto";
import { parseChatOutput } from "../engine/chat";
import type { ChatPrompt, ParsedMessage } from "../engine/types";

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

export class MessageTracker {
  readonly sent: MessageOut = { reasoning: "", content: "", toolCalls: [] };

  constructor(private readonly idPrefix: string) {}

  /** What the parse adds to what was sent. */
  update(m: ParsedMessage): MessageDelta[] {
    const out: MessageDelta[] = [];
    const grow = (kind: "reasoning" | "content", next: string) => {
      const prev = this.sent[kind];
      if (next.length > prev.length && next.startsWith(prev)) {
        out.push({ kind, text: next.slice(prev.length) });
        this.sent[kind] = next;
      }
    };
    grow("reasoning", m.reasoningContent);
    grow("content", m.content);
    for (const [index, call] of m.toolCalls.entries()) {
      const prev = this.sent.toolCalls[index];
      if (!prev) {
        // a call is announced once its name is complete, and calls in order
        if (!call.name) break;
        const sent = { id: call.id || newId(this.idPrefix), name: call.name, arguments: call.arguments };
        this.sent.toolCalls.push(sent);
        out.push({ kind: "tool_call", index, ...sent, start: true });
      } else if (call.arguments.length > prev.arguments.length && call.arguments.startsWith(prev.arguments)) {
        out.push({ kind: "tool_call", index, id: prev.id, name: prev.name, arguments: call.arguments.slice(prev.arguments.length), start: false });
        prev.arguments = call.arguments;
      }
    }
    return out;
  }
}

/** Feeds generated text to the parser while generation goes on; parses coalesce when text arrives faster. */
export class IncrementalParser {
  private text = "";
  private parsedLength = 0;
  private running: Promise<void> | null = null;
  private failure: unknown = null;
  readonly tracker: MessageTracker;

  constructor(
    private readonly prompt: ChatPrompt,
    idPrefix: string,
    private readonly onDeltas: (d: MessageDelta[]) => void,
  ) {
    this.tracker = new MessageTracker(idPrefix);
  }

  push(text: string): void {
    if (!text) return;
    this.text += text;
    this.running ??= this.pump();
  }

  /** The final message. `complete`: the output ended on its own (not cut off by max_tokens or an abort). */
  async finish(fullText: string, complete: boolean): Promise<MessageOut> {
    await this.running;
    if (this.failure) throw this.failure;
    const final = await parseFinal(fullText, this.prompt, complete);
    this.emit(this.tracker.update(final));
    return this.tracker.sent;
  }

  private async pump(): Promise<void> {
    try {
      while (this.parsedLength < this.text.length) {
        const snapshot = this.text;
        const m = await parseChatOutput(snapshot, this.prompt, { partial: true });
        this.parsedLength = snapshot.length;
        this.emit(this.tracker.update(m));
      }
    } catch (e) {
      this.failure = e;
    } finally {
      this.running = null;
    }
  }

  private emit(d: MessageDelta[]): void {
    if (d.length) this.onDeltas(d);
  }
}

/** Output cut off mid-call does not match the format in full; it is read as far as it goes. */
async function parseFinal(text: string, prompt: ChatPrompt, complete: boolean): Promise<ParsedMessage> {
  if (complete) {
    try {
      return await parseChatOutput(text, prompt, { partial: false });
    } catch {
      // the model broke the format: what a partial parse makes of it is all there is
    }
  }
  return parseChatOutput(text, prompt, { partial: true });
}
