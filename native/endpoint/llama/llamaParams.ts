// llama-server's request fields beyond OpenAI's and Anthropic's own, which both APIs here take as llama-server
// does: `grammar` (GBNF) and `json_schema` constrain the output, `sse_ping_interval` sets a stream's keep-alive.
// The ones this endpoint does not implement are a 400 naming the field, never silently ignored — unless the
// value asks for what it does anyway (mirostat 0, typical_p 1, cache_prompt true…): llama.cpp's web UI and
// other clients send their whole settings with every request.
import { badRequest } from "../http/errors";
import type { Fields } from "../http/fields";
import { checkGrammar } from "../chat/grammarCheck";
import { checkJsonSchema } from "../chat/schemaCheck";

export interface LlamaParams {
  grammar?: string;
  jsonSchema?: object;
  /** Seconds between keep-alive comments on a silent stream; -1: none. */
  ssePingSeconds?: number;
}

/** What a field that is not implemented may still say, and what to use instead. */
export interface Unsupported {
  /** The values that ask for nothing this endpoint does not do. */
  accepts?: (v: unknown) => boolean;
  hint?: string;
}

const is = (x: unknown) => (v: unknown) => v === x;

/** llama-server's fields (its /completion options, also read on its OpenAI and Anthropic routes). */
const LLAMA_SERVER_UNSUPPORTED: Record<string, Unsupported> = {
  n_probs: { accepts: is(0), hint: "use logprobs and top_logprobs" },
  post_sampling_probs: { accepts: is(false) },
  dynatemp_range: { accepts: is(0) },
  typical_p: { accepts: is(1) },
  dry_multiplier: { accepts: is(0) },
  xtc_probability: { accepts: is(0) },
  mirostat: { accepts: is(0) },
  top_n_sigma: { accepts: (v) => v === -1 || v === 0 },
  min_keep: { accepts: is(0) },
  n_keep: { accepts: is(0), hint: "the context is never shifted: a prompt that does not fit is refused" },
  n_indent: { accepts: is(0) },
  n_cmpl: { accepts: is(1) },
  n_cache_reuse: { accepts: is(0) },
  t_max_predict_ms: { accepts: is(0) },
  samplers: { hint: "the sampler order is llama-server's default" },
  return_tokens: { accepts: is(false) },
  timings_per_token: { accepts: is(false) },
  return_progress: { accepts: is(false) },
  response_fields: {},
  lora: { accepts: (v) => Array.isArray(v) && v.length === 0, hint: "no LoRA adapters are loaded" },
  image_data: { hint: "the served model reads text only" },
  cache_prompt: { accepts: is(true), hint: "the prompt cache is always on; --cache-ram 0 keeps only the context's" },
  id_slot: { accepts: (v) => v === -1 || v === 0, hint: "there is one slot, 0" },
};

/** Refuses each field of `table` the request sets to a value that asks for something not implemented. */
export function refuseUnsupported(f: Fields, table: Record<string, Unsupported>): void {
  for (const [key, u] of Object.entries(table)) {
    if (!f.has(key)) continue;
    const v = f.raw(key);
    if (u.accepts?.(v)) continue;
    throw badRequest(`is not supported${u.hint ? ` (${u.hint})` : ""}; got ${JSON.stringify(v)}`, f.at(key));
  }
}

export function llamaParams(f: Fields): LlamaParams {
  refuseUnsupported(f, LLAMA_SERVER_UNSUPPORTED);
  const grammar = f.string("grammar");
  const jsonSchema = f.object("json_schema")?.value;
  if (grammar !== undefined && jsonSchema !== undefined) throw badRequest("give a grammar or a json_schema, not both", f.at("grammar"));
  if (grammar !== undefined) checkGrammar(grammar, f.at("grammar"));
  if (jsonSchema !== undefined) checkJsonSchema(jsonSchema, f.at("json_schema"));
  // a day: past 2^31 ms Node fires a timer at once, which would ping without pause
  const ping = f.number("sse_ping_interval", -1, 86_400);
  return { grammar: grammar || undefined, jsonSchema, ssePingSeconds: ping !== undefined && ping <= 0 ? -1 : ping };
}
