// Typings of the two addons' raw interfaces (native/src/loader, native/src/addon). Only backend.ts loads
// them; everything else goes through the typed wrappers.
import type {
  ChatPrompt,
  ContextBucket,
  ContextBucketTotals,
  Device,
  DraftControllerStats,
  ModelInfo,
  OutputDelta,
  ParsedMessage,
  PromptCacheInfo,
  TemplateCaps,
  TokenLogprobs,
} from "./types";

export interface LoaderAddon {
  loadGlobal(path: string): string | null;
  tryLoad(path: string): string | null;
  probeCuda(): CudaProbe;
}

export interface CudaProbe {
  driver: boolean;
  error?: string;
  driverVersion?: number;
  devices?: { name: string; computeCapability: string; memory: number }[];
}

export interface NativeGenerateResult {
  tokens: Int32Array;
  text: string;
  stopReason: "eos" | "stop" | "length" | "abort";
  stopString: string | null;
  logprobs?: TokenLogprobs[];
  messageDeltas?: OutputDelta[];
  messageError?: unknown;
  stats: {
    speculative: boolean;
    promptTokens: number;
    promptEvaluated: number;
    promptRestored: number;
    promptMs: number;
    generatedTokens: number;
    generateMs: number;
    targetDecodes: number;
    draftSteps: number;
    drafted: number;
    accepted: number;
    draftedAt: number[];
    acceptedAt: number[];
    draftMs: number;
    verifyMs: number;
    sampleMs: number;
    controller?: DraftControllerStats;
    byContext?: ({ bucket: ContextBucket } & ContextBucketTotals)[];
  };
}

export interface NativeEngine {
  load(params: object, onProgress?: (stage: string, progress: number) => void): Promise<void>;
  info(): Omit<ModelInfo, "backend">;
  promptCache(): PromptCacheInfo;
  tokenize(text: string, addSpecial: boolean, parseSpecial: boolean): Promise<Int32Array>;
  detokenize(tokens: ArrayLike<number>, special: boolean): Promise<string>;
  tokenPieces(tokens: ArrayLike<number>): Promise<Uint8Array[]>;
  chatTemplates(overrideSource: string): Promise<NativeChatTemplates>;
  generate(
    params: object,
    onToken?: (
      token: number | null,
      text: string,
      logprobs: TokenLogprobs | undefined,
      cachedTokens: number,
      deltas: OutputDelta[] | undefined,
    ) => void,
  ): { done: Promise<NativeGenerateResult>; abort(): void };
  close(): Promise<void>;
}

export interface NativeChatTemplates {
  /** A ChatPrompt handle (the addon's ChatPrompt class). */
  apply(requestJson: string): Promise<ChatPrompt>;
  /** What apply() hands llama.cpp's chat layer, as JSON (ChatTemplates::template_inputs). */
  templateInputs(requestJson: string): Promise<string>;
  caps(): Promise<TemplateCaps>;
  source(): string;
}

export interface EngineAddon {
  init(libDirs: string[], verbose: boolean): void;
  shutdown(): void;
  devices(): Device[];
  llamaBuild(): string;
  Engine: new () => NativeEngine;
  createChatTemplates(source: string, bosText: string, eosText: string): Promise<NativeChatTemplates>;
  parseChatOutput(text: string, isPartial: boolean, prompt: ChatPrompt): Promise<ParsedMessage>;
  renderJinja(source: string, contextJson: string): Promise<string>;
}
