// One generation through the queue: wait for the slot (or 429), check that it fits the context before any
// decoding, generate, give the slot back. The caller's signal aborts it, queued or running.
import { ContextOverflowError, type Engine, type GenerateOptions, type GenerateResult } from "../engine";
import type { GenerationQueue } from "./queue";
import { noteGeneration } from "./requestLog";

/**
 * Without max_tokens a generation may use what the context has left (as llama-server's n_predict -1); the
 * overflow error then counts only the prompt, what the client sent.
 */
export function maxTokensFor(requested: number | undefined, promptTokens: number, contextSize: number): number {
  if (promptTokens + (requested ?? 1) > contextSize) throw new ContextOverflowError(promptTokens, requested, contextSize);
  return requested ?? contextSize - promptTokens;
}

export async function generate(
  engine: Engine,
  queue: GenerationQueue,
  prompt: number[],
  options: Omit<GenerateOptions, "maxTokens"> & { maxTokens?: number; signal: AbortSignal },
): Promise<GenerateResult> {
  const maxTokens = maxTokensFor(options.maxTokens, prompt.length, engine.info.contextSize);
  const release = await queue.acquire(options.signal);
  try {
    const result = await engine.generate(prompt, { ...options, maxTokens });
    noteGeneration(result.stats);
    return result;
  } finally {
    release();
  }
}
