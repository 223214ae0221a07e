// Public types of the native engine's TypeScript API (see docs/design.md, "Native engine").

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
  /** The llama.cpp build: "b<number>-<commit>". */
  llamaBuild: string;
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
  /**
   * CPU threads. Omitted: one for models narrower than 512 (the demo and test models), whose ops are too small
   * for llama.cpp's threadpool to pay off, and llama.cpp's default (math cores) for the rest.
   */
  threads?: number;
  /** KV cache types: f32, f16 (default), bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1. */
  cacheTypeK?: string;
  cacheTypeV?: string;
  /** Tokens drafted per step, at most the draft's block size - 1 (the default). */
  draftMax?: number;
  /**
   * Choose each step's draft length, 0 (a plain step) to draftMax, for the most expected tokens per second
   * from running acceptance by position and context and the measured step costs (default true); false drafts
   * draftMax every step. Lossless either way.
   */
  draftAdaptive?: boolean;
  /**
   * Positions of target features the draft attends to, replacing the window in the draft's metadata
   * (`dflash.attention.sliding_window`; the draft must have sliding-window layers). Shorter windows make drafting
   * cheaper at long context, but a draft trained to look further back then proposes worse tokens.
   */
  draftWindow?: number;
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
  /** window: positions the draft attends to, 0 for all. */
  draft: { name: string; layers: number; blockSize: number; draftMax: number; draftAdaptive: boolean; window: number } | null;
  /** CPU threads the target decodes with (LoadOptions.threads, or the default chosen for this model). */
  threads: number;
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
  /**
   * Prompt tokens this generation reused from the KV cache (stats.cachedTokens), the same on every event: a
   * stream can report its usage when it starts (Anthropic's message_start) as the final stats will.
   */
  cachedTokens: number;
  /** With `logprobs`. */
  logprobs?: TokenLogprobs;
  /** With `parseMessage`: what a partial parse of the output up to here added to the message, when one ran. */
  deltas?: OutputDelta[];
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
  /** The chat layer's constraints for this prompt: its grammar (unless `grammar` replaces it), triggers, preserved tokens and stops. */
  chat?: ChatPrompt;
  /**
   * With `chat`: the output parsed into the assistant message by the prompt's format, in the generation loop
   * (GenerateResult.messageDeltas); with onToken, partial parses as it grows too (TokenEvent.deltas), each
   * waiting until the parses so far took at most 2 % of the time, and at most 30 a second.
   */
  parseMessage?: boolean;
  ignoreEos?: boolean;
  /** Use the DFlash draft when one is loaded (default true). */
  speculative?: boolean;
  /** This request only: adaptive draft length (true) or full blocks (false); default: the engine's draftAdaptive. */
  draftAdaptive?: boolean;
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
  /** DFlash requests: the draft-length controller's choices. */
  controller?: DraftControllerStats;
  /** DFlash requests: acceptance per context bucket, each step counted at its context length. */
  byContext?: ContextAcceptance[];
}

export type ContextBucket = "<4k" | "4-16k" | "16-32k" | "32-64k" | ">=64k";

export interface DraftControllerStats {
  adaptive: boolean;
  /** [n]: steps that drafted n tokens; [0]: plain steps. */
  choices: number[];
  /** Full blocks drafted to re-check a draft the controller had cut short. */
  probes: number;
  /** Tokens the last step drafted. */
  lastChoice: number;
  /** Estimated speed of the best draft length over plain decoding at the final context (< 1: DFlash cannot win there); 0: not yet measured. */
  breakEven: number;
}

/** What the engine counts in one context bucket; the endpoint adds these up over its run. */
export interface ContextBucketTotals {
  /** Steps with a draft, and steps the controller left plain. */
  steps: number;
  plainSteps: number;
  drafted: number;
  accepted: number;
  /** Wall time of the steps with a draft (draft, verify, sampling) and of the plain steps, in ms. */
  stepMs: number;
  plainMs: number;
}

export interface ContextAcceptance extends ContextBucketTotals {
  bucket: ContextBucket;
  acceptance: number;
  /** Accepted draft tokens per step with a draft. */
  meanAcceptedLength: number;
}

export interface GenerateResult {
  tokens: number[];
  text: string;
  stopReason: "eos" | "stop" | "length" | "abort";
  stopString: string | null;
  /** One per generated token but a final end-of-generation token, with `logprobs`. */
  logprobs?: TokenLogprobs[];
  /**
   * With `parseMessage`: what the final parse added to the message the token events' deltas sent (all of it
   * without onToken); none after an abort. Output that ended on its own and breaks the format is read by a
   * partial parse, as far as it goes.
   */
  messageDeltas?: OutputDelta[];
  /** With `parseMessage`: a parse of the output failed (EngineError "template_error"); parsing stopped there. */
  messageError?: Error;
  stats: GenerateStats;
}

/**
 * What llama.cpp's chat layer made of a chat request (ChatTemplate.apply): the prompt llama-server would build
 * and its constraints, held by the native side. Engine.generate (`chat`) and parseChatOutput take it as it is,
 * so its grammar and parser never become JavaScript values; `prompt` is its text, describe() reads the rest.
 */
export interface ChatPrompt {
  readonly prompt: string;
  describe(): ChatPromptInfo;
}

/** A chat prompt's constraints and format, as describe() reads them. */
export interface ChatPromptInfo {
  prompt: string;
  format: string;
  grammar: string;
  grammarKind: "" | "tool_calls" | "output_format" | "user";
  grammarLazy: boolean;
  grammarTriggers: { type: "token" | "word" | "pattern" | "pattern_full"; value: string }[];
  preservedTokens: string[];
  additionalStops: string[];
  generationPrompt: string;
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

/**
 * What a parse of a growing output adds to what a stream has sent (GenerateOptions.parseMessage). A tool call's first
 * delta (`start`) names it and carries the model's id ("" when it gave none); later ones add arguments.
 */
export type OutputDelta =
  | { kind: "reasoning" | "content"; text: string }
  | { kind: "tool_call"; index: number; text: string; start: true; id: string; name: string }
  | { kind: "tool_call"; index: number; text: string; start: false };

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
