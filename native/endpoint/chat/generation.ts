// One generation through the queue: wait for the slot (or 429), check that it fits the context before any
// decoding, generate, give the slot back. The caller's signal aborts it, queued or running.
import { ContextOverflowError, type Engine, type GenerateOptions, type GenerateResult } from "../../engine";
import type { GenerationQueue } from "../llama/queue";
import { noteGeneration } from "../http/requestLog";

/**
 * Without max_tokens a generation may use what the context has left (as llama-server's n_predict -1); the
 * overflow error then counts only the prompt, what the client sent. `clamp`: a max_tokens past the room left
 * is cut to it (the answer then ends with "length", as llama-server's do) instead of refused.
 */
export function maxTokensFor(requested: number | undefined, promptTokens: number, contextSize: number, clamp = false): number {
  const room = contextSize - promptTokens;
  if (clamp && requested !== undefined && room >= 1) return Math.min(requested, room);
  if (promptTokens + (requested ?? 1) > contextSize) throw new ContextOverflowError(promptTokens, requested, contextSize);
  return requested ?? room;
}

export async function generate(
  engine: Engine,
  queue: GenerationQueue,
  prompt: number[],
  options: Omit<GenerateOptions, "maxTokens"> & {
    maxTokens?: number;
    /** Cut a max_tokens past the room left instead of refusing it (maxTokensFor). */
    clampMaxTokens?: boolean;
    signal: AbortSignal;
    /** Called once the request fits and the queue has taken it, before any wait or prefill. */
    onAccepted?: () => void;
  },
): Promise<GenerateResult> {
  const { clampMaxTokens, onAccepted, ...rest } = options;
  const maxTokens = maxTokensFor(options.maxTokens, prompt.length, engine.info.contextSize, clampMaxTokens);
  const release = await queue.acquire(options.signal, onAccepted);
  try {
    const result = await engine.generate(prompt, { ...rest, maxTokens });
    noteGeneration(result.stats);
    return result;
  } finally {
    release();
  }
}
