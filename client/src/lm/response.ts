// Streamed chat.completion.chunk deltas → VS Code's response parts: text as it arrives, each tool call
// once the stream has finished it (a part needs the whole input object), and the generation's figures.
// Reasoning deltas are dropped: the stable API has no part for them.
import { statsOf, type GenerationStats } from "../endpoint/stats";

/** Builds the real LanguageModelTextPart / LanguageModelToolCallPart in the extension, plain objects in tests. */
export interface PartFactory<P> {
  text(value: string): P;
  toolCall(callId: string, name: string, input: object): P;
}

interface CallInProgress {
  id: string;
  name: string;
  arguments: string;
}

export class ChatResponseReader<P> {
  private readonly calls: CallInProgress[] = [];
  private finish: string | null = null;
  stats: GenerationStats | null = null;

  constructor(
    private readonly parts: PartFactory<P>,
    private readonly report: (part: P) => void,
  ) {}

  push(chunk: Record<string, unknown>): void {
    this.stats = statsOf(chunk) ?? this.stats;
    const choice = (chunk.choices as Record<string, unknown>[] | undefined)?.[0];
    if (!choice) return;
    if (typeof choice.finish_reason === "string") this.finish = choice.finish_reason;
    const delta = (choice.delta ?? {}) as { content?: unknown; tool_calls?: unknown };
    if (typeof delta.content === "string" && delta.content) this.report(this.parts.text(delta.content));
    for (const d of (delta.tool_calls ?? []) as { index?: number; id?: string; function?: { name?: string; arguments?: string } }[]) {
      const index = d.index ?? this.calls.length;
      const call = (this.calls[index] ??= { id: "", name: "", arguments: "" });
      if (d.id) call.id = d.id;
      if (d.function?.name) call.name += d.function.name;
      if (d.function?.arguments) call.arguments += d.function.arguments;
    }
  }

  /** Reports the tool calls; throws when one is not a JSON object (cut off by max_tokens, or a broken format). */
  end(): void {
    this.calls.forEach((c, i) => {
      let input: unknown;
      try {
        input = JSON.parse(c.arguments || "{}");
      } catch {
        const why = this.finish === "length" ? "was cut off by the token limit" : "has arguments that are not JSON";
        throw new Error(`the model's call of ${c.name || "a tool"} ${why}: ${c.arguments}`);
      }
      if (typeof input !== "object" || input === null || Array.isArray(input))
        throw new Error(`the model's call of ${c.name} has arguments that are not a JSON object: ${c.arguments}`);
      this.report(this.parts.toolCall(c.id || `call_${i}`, c.name, input));
    });
  }
}
