// The assistant's output as Responses output items (reasoning with its summary text, message with output_text,
// function_call), built from the same deltas a stream sends, so that a streamed and a whole response agree. With
// an event sink it also tells each step as the streamed events the openai SDK accumulates:
// output_item.added, content_part.added / reasoning_summary_part.added, the deltas, their .done events,
// output_item.done. An item closes when output of another kind begins.
import type { GenerateStats } from "../../engine";
import type { Finish } from "../chat/chat";
import { newId, type MessageDelta, type MessageOut } from "../chat/chatOutput";

export type EventSink = (type: string, data: object) => void;

type Item = Record<string, unknown> & { type: string; id: string };

/** A whole message as the deltas a stream would have sent. */
export function deltasOf(m: MessageOut): MessageDelta[] {
  return [
    ...(m.reasoning ? [{ kind: "reasoning" as const, text: m.reasoning }] : []),
    ...(m.content ? [{ kind: "content" as const, text: m.content }] : []),
    ...m.toolCalls.map((c, index) => ({ kind: "tool_call" as const, index, id: c.id, name: c.name, arguments: c.arguments, start: true })),
  ];
}

export class OutputItems {
  readonly items: Item[] = [];
  private open: { kind: MessageDelta["kind"]; toolIndex: number; text: string } | null = null;

  constructor(private readonly emit: EventSink = () => {}) {}

  private get index(): number {
    return this.items.length - 1;
  }

  private get item(): Item {
    return this.items[this.index];
  }

  private begin(kind: MessageDelta["kind"], item: Item, toolIndex = -1): void {
    this.close("completed");
    this.items.push(item);
    this.open = { kind, toolIndex, text: "" };
    this.emit("response.output_item.added", { output_index: this.index, item: structuredClone(item) });
    const at = { item_id: item.id, output_index: this.index };
    if (kind === "reasoning")
      this.emit("response.reasoning_summary_part.added", { ...at, summary_index: 0, part: { type: "summary_text", text: "" } });
    if (kind === "content") this.emit("response.content_part.added", { ...at, content_index: 0, part: outputText("") });
  }

  add(d: MessageDelta): void {
    if (d.kind === "reasoning") {
      if (this.open?.kind !== "reasoning") this.begin("reasoning", { type: "reasoning", id: newId("rs_"), summary: [] });
      this.open!.text += d.text;
      this.emit("response.reasoning_summary_text.delta", {
        item_id: this.item.id,
        output_index: this.index,
        summary_index: 0,
        delta: d.text,
      });
      return;
    }
    if (d.kind === "content") {
      if (this.open?.kind !== "content")
        this.begin("content", { type: "message", id: newId("msg_"), status: "in_progress", role: "assistant", content: [] });
      this.open!.text += d.text;
      const at = { item_id: this.item.id, output_index: this.index, content_index: 0 };
      this.emit("response.output_text.delta", { ...at, delta: d.text, logprobs: [] });
      return;
    }
    if (d.start) {
      const call = { type: "function_call", id: newId("fc_"), call_id: d.id, name: d.name, arguments: "", status: "in_progress" };
      this.begin("tool_call", call, d.index);
    }
    // the parser completes one call before it starts the next, so arguments go to the open item
    if (d.arguments && this.open?.kind === "tool_call" && this.open.toolIndex === d.index) {
      this.open.text += d.arguments;
      this.emit("response.function_call_arguments.delta", { item_id: this.item.id, output_index: this.index, delta: d.arguments });
    }
  }

  /** Ends the open item: "incomplete" when max_output_tokens cut it. */
  close(status: "completed" | "incomplete"): void {
    const open = this.open;
    if (!open) return;
    this.open = null;
    const item = this.item;
    const at = { item_id: item.id, output_index: this.index };
    if (open.kind === "reasoning") {
      const part = { type: "summary_text", text: open.text };
      item.summary = [part];
      this.emit("response.reasoning_summary_text.done", { ...at, summary_index: 0, text: open.text });
      this.emit("response.reasoning_summary_part.done", { ...at, summary_index: 0, part });
    } else if (open.kind === "content") {
      const part = outputText(open.text);
      item.content = [part];
      item.status = status;
      this.emit("response.output_text.done", { ...at, content_index: 0, text: open.text, logprobs: [] });
      this.emit("response.content_part.done", { ...at, content_index: 0, part });
    } else {
      item.arguments = open.text;
      item.status = status;
      this.emit("response.function_call_arguments.done", { ...at, name: item.name, arguments: open.text });
    }
    this.emit("response.output_item.done", { output_index: this.index, item: structuredClone(item) });
  }
}

const outputText = (text: string) => ({ type: "output_text", text, annotations: [], logprobs: [] });

/** The Responses usage: cached prompt tokens under input_tokens_details. */
export const usageOf = (s: GenerateStats) => ({
  input_tokens: s.promptTokens,
  input_tokens_details: { cached_tokens: s.cachedTokens },
  output_tokens: s.generatedTokens,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: s.promptTokens + s.generatedTokens,
});

/** The response's status and why it is incomplete: max_output_tokens (or the context) cut it. */
export function statusOf(finish: Finish): { status: "completed" | "incomplete"; incomplete_details: { reason: string } | null } {
  return finish === "length"
    ? { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } }
    : { status: "completed", incomplete_details: null };
}

/** The text output as one string, as the SDKs' output_text gives it. */
export function outputTextOf(items: Item[]): string {
  return items
    .filter((i) => i.type === "message")
    .flatMap((i) => i.content as { text: string }[])
    .map((c) => c.text)
    .join("");
}
