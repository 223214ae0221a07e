// The assistant message and the deltas a stream sends. The engine parses the output in its generation loop
// (GenerateOptions.parseMessage) and gives what each parse adds to what was sent; here those deltas become the
// message, and a call the model gave no id gets one. Nothing sent is ever taken back, so a stream and the
// final message always agree.
import { randomBytes } from "node:crypto";
import type { OutputDelta } from "../../engine";

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
