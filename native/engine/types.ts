// Public types of the native engine's TypeScript API (see ARCHITECTURE.md, "Native engine").

export interface Device {
  name: string;
  description: string;
  type: "cpu" | "gpu" | "igpu" | "accel";
  backend: string;
  memoryTotal: number;
  memoryFree: number;
}

export interface BackendInfo {
  kind: "cpu" | "cuda";
  /** Folders whose llama.cpp libraries and ggml backends this process runs on. */
  libDirs: string[];
  /** Why this backend: what was requested, or why CUDA could not be used. */
  reason: string;
  devices: Device[];
}

export interface LoadOptions {
  target: string;
  /** A DFlash draft (arch `dflash`) for the target; without it generation is plain. */
  draft?: string;
  contextSize?: number;
  batchSize?: number;
  /** Layers offloaded to the GPU, -1 for all (the default). */
  gpuLayers?: number;
  draftGpuLayers?: number;
  /** CPU threads; llama.cpp's default (math cores) when omitted. */
  threads?: number;
  /** KV cache types: f32, f16 (default), bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1. */
  cacheTypeK?: string;
  cacheTypeV?: string;
  /** Tokens drafted per step, at most the draft's block size - 1 (the default). */
  draftMax?: number;
  /** One throwaway decode at load so the first request is not slower (default true). */
  warmup?: boolean;
  /**
   * Default "off" on the CPU, "auto" otherwise: llama.cpp's CPU flash attention makes a 16-token
   * verification batch cost 13x one token at 400 positions (1.3x without it), which undoes DFlash.
   */
  flashAttention?: "auto" | "on" | "off";
  /**
   * Host memory (MiB) for the KV state of earlier conversations, so that a side request does not evict the
   * main one (prompt_cache.h); 0 (the default) keeps only what the context holds.
   */
  cacheRamMiB?: number;
  onProgress?: (stage: "target" | "draft", progress: number) => void;
}

export interface ModelInfo {
  arch: string;
  name: string;
  description: string;
  /** The GGUF's own template (tokenizer.chat_template), "" when it has none. */
  chatTemplate: string;
  contextSize: number;
  trainContextSize: number;
  vocabSize: number;
  embeddingSize: number;
  layers: number;
  sizeBytes: number;
  parameters: number;
  bos: number | null;
  eos: number | null;
  bosText: string;
  eosText: string;
  addBos: boolean;
  draft: { name: string; layers: number; blockSize: number; draftMax: number } | null;
  backend: BackendInfo;
}

export interface SamplingOptions {
  /** <= 0 is greedy. Defaults are llama-server's: 0.8, top_k 40, top_p 0.95, min_p 0.05. */
  temperature?: number;
  topK?: number;
  topP?: number;
  minP?: number;
  /** Unset: a random seed per request. */
  seed?: number;
  repeatPenalty?: number;
  repeatLastN?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  /** Added to token logits, as OpenAI's logit_bias (token id → bias); -Infinity bans a token. */
  logitBias?: Record<number, number>;
}

export interface TokenEvent {
  /** null for the final flush of text that was held back (a stop string that never completed). */
  token: number | null;
  /** Text this token released; "" while it may still be part of a stop string or a UTF-8 character. */
  text: string;
  /** With `logprobs`. */
  logprobs?: TokenLogprobs;
}

/**
 * A generated token's log-probability under the target's distribution at its position: the softmax of its
 * logits before the sampler chain (llama-server's default, `post_sampling_probs` false), and the `top` most
 * likely tokens there. `bytes` are the token's bytes, which may be part of a UTF-8 character.
 */
export interface TokenLogprob {
  token: number;
  bytes: number[];
  logprob: number;
}
export interface TokenLogprobs extends TokenLogprob {
  top: TokenLogprob[];
}

export interface GenerateOptions extends SamplingOptions {
  maxTokens: number;
  stop?: string[];
  /** GBNF grammar the output must match. */
  grammar?: string;
  /** A JSON schema the output must match (converted to a grammar by llama.cpp). */
  jsonSchema?: object;
  /** The chat layer's constraints for this prompt: its grammar, triggers, preserved tokens and stops. */
  chat?: ChatPrompt;
  ignoreEos?: boolean;
  /** Use the DFlash draft when one is loaded (default true). */
  speculative?: boolean;
  /** Each token's log-probability (TokenLogprobs), with that many alternatives (0..20). */
  logprobs?: { top: number };
  signal?: AbortSignal;
  onToken?: (event: TokenEvent) => void;
}

export interface GenerateStats {
  speculative: boolean;
  promptTokens: number;
  /** Prompt tokens decoded; the rest came from the KV cache (prefix of the previous request). */
  promptEvaluated: number;
  /** Of the cached ones, those brought back from the prompt cache in host memory (another conversation's). */
  promptRestored: number;
  cachedTokens: number;
  promptMs: number;
  promptTokensPerSecond: number;
  generatedTokens: number;
  generateMs: number;
  tokensPerSecond: number;
  targetDecodes: number;
  /** Verification steps that had a draft. */
  draftSteps: number;
  drafted: number;
  accepted: number;
  /** accepted / drafted, 0 without drafts. */
  acceptance: number;
  /** [i]: fraction of drafts reaching position i whose token i was accepted. */
  acceptanceAt: number[];
  draftedAt: number[];
  acceptedAt: number[];
  /** Accepted draft tokens per verification step. */
  meanAcceptedLength: number;
  draftMs: number;
  verifyMs: number;
  sampleMs: number;
}

export interface GenerateResult {
  tokens: number[];
  text: string;
  stopReason: "eos" | "stop" | "length" | "abort";
  stopString: string | null;
  /** One per generated token but a final end-of-generation token, with `logprobs`. */
  logprobs?: TokenLogprobs[];
  stats: GenerateStats;
}

/** What llama.cpp's chat layer makes of a chat request: the prompt llama-server would build and its constraints. */
export interface ChatPrompt {
  prompt: string;
  format: string;
  formatId: number;
  grammar: string;
  grammarKind: "" | "tool_calls" | "output_format" | "user";
  grammarLazy: boolean;
  grammarTriggers: { type: "token" | "word" | "pattern" | "pattern_full"; value: string }[];
  preservedTokens: string[];
  additionalStops: string[];
  generationPrompt: string;
  /** Serialized parser for parseChatOutput. */
  parser: string;
  reasoningFormat: string;
  /** The prompt ends inside a trailing assistant message (a prefill): parsed output leaves that text out. */
  isContinuation: boolean;
  supportsThinking: boolean;
  thinkingStartTag: string;
  thinkingEndTags: string[];
}

/** The OpenAI chat-completions fields that shape the prompt. */
export interface ChatRequest {
  messages: unknown[];
  tools?: unknown[];
  tool_choice?: "auto" | "none" | "required" | { type: "function"; function: { name: string } };
  parallel_tool_calls?: boolean;
  response_format?: { type: "text" | "json_object" | "json_schema"; json_schema?: { schema?: object }; schema?: object };
  json_schema?: object;
  grammar?: string;
  add_generation_prompt?: boolean;
  continue_final_message?: boolean | string;
  chat_template_kwargs?: Record<string, unknown>;
  reasoning_format?: string;
  reasoning_effort?: string;
  enable_thinking?: boolean;
}

export interface ParsedMessage {
  content: string;
  reasoningContent: string;
  toolCalls: { name: string; arguments: string; id: string }[];
}

/** The capability flags llama.cpp infers by probing a template (common_chat_templates_get_caps). */
export type TemplateCaps = Record<
  | "supports_tools"
  | "supports_tool_calls"
  | "supports_system_role"
  | "supports_parallel_tool_calls"
  | "supports_preserve_reasoning"
  | "supports_reasoning_effort"
  | "supports_string_content"
  | "supports_typed_content"
  | "supports_object_arguments",
  boolean
>;

/** What the prompt cache holds: the conversation in the context and those saved in host memory. */
export interface PromptCacheInfo {
  /** Tokens in the context, as the last request left it. */
  liveTokens: number;
  budgetBytes: number;
  usedBytes: number;
  /** Most recently used first. */
  entries: { tokens: number; draftTokens: number; bytes: number; lastUsedMs: number }[];
}
