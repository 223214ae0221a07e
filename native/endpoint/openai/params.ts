// The request fields chat completions and completions share: model, streaming, sampling, limits, stops, and
// llama-server's extensions (llamaParams.ts).
import type { SamplingOptions } from "../../engine";
import { MAX_FLOAT32, MAX_INT32, MAX_REPEAT_LAST_N } from "../chat/constraintLimits";
import { badRequest, type FieldPath } from "../http/errors";
import { wrongType, type Fields } from "../http/fields";
import { llamaParams, refuseUnsupported, type LlamaParams } from "../llama/llamaParams";

export interface CommonParams {
  stream: boolean;
  includeUsage: boolean;
  sampling: SamplingOptions;
  maxTokens?: number;
  stop: string[];
  /** llama-server's extension: keep generating past end-of-turn tokens. */
  ignoreEos?: boolean;
  llama: LlamaParams;
}

/** OpenAI's fields this endpoint does not implement (those that change nothing, like `user`, are accepted). */
const OPENAI_UNSUPPORTED = {
  functions: { hint: "use tools" },
  function_call: { hint: "use tool_choice" },
  modalities: { accepts: (v: unknown) => Array.isArray(v) && v.every((m) => m === "text"), hint: "the served model writes text only" },
  audio: { hint: "the served model writes text only" },
  prediction: {},
  web_search_options: {},
};

/** OpenAI's `{"token id": bias}` (-100..100; -100 bans the token) or llama-server's `[[id, bias or false]]`. */
function logitBias(f: Fields): Record<number, number> | undefined {
  const v = f.raw("logit_bias");
  if (v === undefined) return undefined;
  let pairs: { token: unknown; bias: unknown; at: FieldPath }[];
  if (Array.isArray(v)) {
    pairs = v.map((p, i) => {
      if (!Array.isArray(p) || p.length !== 2) throw wrongType(["logit_bias", i], "a [token id, bias] pair", p);
      return { token: p[0], bias: p[1], at: ["logit_bias", i] };
    });
  } else if (typeof v === "object") {
    pairs = Object.entries(v as object).map(([k, bias]) => ({ token: /^\d+$/.test(k) ? Number(k) : k, bias, at: ["logit_bias", k] }));
  } else throw wrongType(["logit_bias"], "an object of token ids to biases", v);
  const bias: Record<number, number> = {};
  for (const p of pairs) {
    if (!Number.isInteger(p.token) || (p.token as number) < 0 || (p.token as number) > MAX_INT32)
      throw badRequest(`must be keyed by token ids, got ${JSON.stringify(p.token)}`, p.at);
    if (p.bias === false || p.bias === -100) bias[p.token as number] = -Infinity;
    else if (typeof p.bias === "number" && p.bias >= -100 && p.bias <= 100) bias[p.token as number] = p.bias;
    else throw badRequest(`must be a number from -100 to 100, got ${JSON.stringify(p.bias)}`, p.at);
  }
  return bias;
}

export function commonParams(f: Fields): CommonParams {
  // any name is accepted: one model is served, and clients send their own (clients of other servers, too)
  f.need("model", f.string);
  refuseUnsupported(f, OPENAI_UNSUPPORTED);
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
      topK: f.integer("top_k", 0, MAX_INT32),
      minP: f.number("min_p", 0, 1),
      // -1: a random seed, as in llama-server
      seed: nonNegative(f.integer("seed", -1, 0xffffffff)),
      frequencyPenalty: f.number("frequency_penalty", -2, 2),
      presencePenalty: f.number("presence_penalty", -2, 2),
      repeatPenalty: positive(f, "repeat_penalty"),
      repeatLastN: f.integer("repeat_last_n", -1, MAX_REPEAT_LAST_N),
      logitBias: logitBias(f),
    },
    maxTokens: f.integer("max_completion_tokens", 1) ?? f.integer("max_tokens", 1) ?? nPredict(f),
    stop: f.strings("stop") ?? [],
    ignoreEos: f.boolean("ignore_eos"),
    llama: llamaParams(f),
  };
}

export const usageOf = (s: { promptTokens: number; generatedTokens: number; cachedTokens: number }) => ({
  prompt_tokens: s.promptTokens,
  completion_tokens: s.generatedTokens,
  total_tokens: s.promptTokens + s.generatedTokens,
  prompt_tokens_details: { cached_tokens: s.cachedTokens },
});

/** llama-server's name for max_tokens; -1: as many as the context has room for. */
function nPredict(f: Fields): number | undefined {
  const n = f.integer("n_predict", -1);
  if (n === 0) throw badRequest("must be -1 (no limit) or at least 1: a request here always generates", ["n_predict"]);
  return n === undefined || n < 0 ? undefined : n;
}

/** llama.cpp divides by the repetition penalty, a 32-bit float. */
function positive(f: Fields, key: string): number | undefined {
  const v = f.number(key, 0, MAX_FLOAT32);
  if (v === 0) throw badRequest("must be greater than 0", f.at(key));
  return v;
}

const nonNegative = (n: number | undefined) => (n === undefined || n < 0 ? undefined : n);
