// The request fields chat completions and completions share: model, streaming, sampling, limits, stops.
import type { SamplingOptions } from "../../engine/types";
import { badRequest } from "../errors";
import type { Fields } from "../fields";

export interface CommonParams {
  stream: boolean;
  includeUsage: boolean;
  sampling: SamplingOptions;
  maxTokens?: number;
  stop: string[];
  /** llama-server's extension: keep generating past end-of-turn tokens. */
  ignoreEos?: boolean;
}

export function commonParams(f: Fields): CommonParams {
  // any name is accepted: one model is served, and clients send their own (clients of other servers, too)
  f.need("model", f.string);
  const n = f.integer("n", 1);
  if (n !== undefined && n !== 1) throw badRequest("only 1 choice per request is supported", ["n"]);
  const stream = f.boolean("stream") ?? false;
  const options = f.object("stream_options");
  if (options && !stream) throw badRequest("is only allowed with stream: true", ["stream_options"]);
  return {
    stream,
    includeUsage: options?.boolean("include_usage") ?? false,
    sampling: {
      temperature: f.number("temperature", 0, 2),
      topP: f.number("top_p", 0, 1),
      topK: f.integer("top_k", 0),
      minP: f.number("min_p", 0, 1),
      // -1: a random seed, as in llama-server
      seed: nonNegative(f.integer("seed", -1, 0xffffffff)),
      frequencyPenalty: f.number("frequency_penalty", -2, 2),
      presencePenalty: f.number("presence_penalty", -2, 2),
      repeatPenalty: f.number("repeat_penalty", 0),
    },
    maxTokens: f.integer("max_completion_tokens", 1) ?? f.integer("max_tokens", 1),
    stop: f.strings("stop") ?? [],
    ignoreEos: f.boolean("ignore_eos"),
  };
}

export const usageOf = (s: { promptTokens: number; generatedTokens: number; cachedTokens: number }) => ({
  prompt_tokens: s.promptTokens,
  completion_tokens: s.generatedTokens,
  total_tokens: s.promptTokens + s.generatedTokens,
  prompt_tokens_details: { cached_tokens: s.cachedTokens },
});

const nonNegative = (n: number | undefined) => (n === undefined || n < 0 ? undefined : n);
