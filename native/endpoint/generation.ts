// One generation through the queue: wait for the slot (or 429), check that it fits the context before any
// decoding, generate, give the slot back. The caller's signal aborts it, queued or running.
import type { Engine } from "../engine/engine";
import { ContextOverflowError } from "../engine/errors";
import type { GenerateOptions, GenerateResult } from "../engine/types";
import type { GenerationQueue } from "./queue";

/** Without max_tokens a generation may use what the context has left (as llama-server's n_predict -1). */
export function maxTokensFor(requested: number | undefined, promptTokens: number, contextSize: number): number {
  const maxTokens = requested ?? Math.max(1, contextSize - promptTokens);
  if (promptTokens + maxTokens > contextSize) throw new ContextOverflowError(promptTokens, maxTokens, contextSize);
  return maxTokens;
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
    return await engine.generate(prompt, { ...options, maxTokens });
  } finally {
    release();
  }
}
