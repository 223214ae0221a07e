// The engine's TypeScript face: a loaded target (+ DFlash draft) with async tokenize, chat templating and
// generation. Every call returns a promise; the work runs on native threads.
import { existsSync } from "node:fs";
import { chatTemplate, GGUFError, type GGUFHeader, readGGUFHeader } from "../../server/src/gguf";
import { loadBackend, type BackendOptions } from "./backend";
import { ChatTemplate } from "./chat";
import { EngineError, ModelFileError, fromNative } from "./errors";
import type { NativeEngine, NativeGenerateResult } from "./native";
import type { GuardedTemplates, ModelTemplates } from "../../server/src/guard";
import { guarded } from "./guard";
import type { GenerateOptions, GenerateResult, GenerateStats, LoadOptions, ModelInfo, PromptCacheInfo } from "./types";

/** Our reader first: it names the offset and field of a corrupt or truncated file, llama.cpp does not. */
function checkModelFile(path: string, role: "target" | "draft"): GGUFHeader {
  if (!existsSync(path)) throw new EngineError("file_not_found", `${role} model not found: ${path}`);
  try {
    return readGGUFHeader(path);
  } catch (e) {
    throw e instanceof GGUFError ? ModelFileError.from(e) : e;
  }
}

function deriveStats(s: NativeGenerateResult["stats"]): GenerateStats {
  const rate = (n: number, ms: number) => (ms > 0 ? (n * 1000) / ms : 0);
  return {
    ...s,
    cachedTokens: s.promptTokens - s.promptEvaluated,
    promptTokensPerSecond: rate(s.promptEvaluated, s.promptMs),
    tokensPerSecond: rate(s.generatedTokens, s.generateMs),
    acceptance: s.drafted > 0 ? s.accepted / s.drafted : 0,
    acceptanceAt: s.draftedAt.map((n, i) => (n > 0 ? s.acceptedAt[i] / n : 0)),
    meanAcceptedLength: s.draftSteps > 0 ? s.accepted / s.draftSteps : 0,
    byContext: s.byContext?.map((b) => ({
      ...b,
      acceptance: b.drafted > 0 ? b.accepted / b.drafted : 0,
      meanAcceptedLength: b.steps > 0 ? b.accepted / b.steps : 0,
    })),
  };
}

export class Engine {
  private closed = false;

  private constructor(
    private readonly native: NativeEngine,
    readonly info: ModelInfo,
    private readonly templates: ModelTemplates,
  ) {}

  static async load(options: LoadOptions & { backend?: BackendOptions }): Promise<Engine> {
    const header = checkModelFile(options.target, "target");
    if (options.draft) checkModelFile(options.draft, "draft");
    const { addon, info: backend } = loadBackend(options.backend);
    const n = new addon.Engine();
    const { onProgress, backend: _, ...params } = options;
    const flashAttention = params.flashAttention ?? (backend.kind === "cpu" ? "off" : "auto");
    try {
      await n.load({ ...params, flashAttention }, onProgress as ((stage: string, progress: number) => void) | undefined);
    } catch (e) {
      throw fromNative(e);
    }
    return new Engine(n, { ...n.info(), backend }, { default: chatTemplate(header), toolUse: chatTemplate(header, "tool_use") });
  }

  async tokenize(text: string, options: { addSpecial?: boolean; parseSpecial?: boolean } = {}): Promise<number[]> {
    try {
      return Array.from(await this.native.tokenize(text, options.addSpecial ?? true, options.parseSpecial ?? true));
    } catch (e) {
      throw fromNative(e);
    }
  }

  async detokenize(tokens: readonly number[], options: { special?: boolean } = {}): Promise<string> {
    try {
      return await this.native.detokenize(tokens, options.special ?? false);
    } catch (e) {
      throw fromNative(e);
    }
  }

  /** Each token's bytes (special tokens as their text); a token may hold part of a UTF-8 character. */
  async tokenPieces(tokens: readonly number[]): Promise<Uint8Array[]> {
    try {
      return await this.native.tokenPieces(tokens);
    } catch (e) {
      throw fromNative(e);
    }
  }

  /** What the prompt cache holds now (the conversations it could bring back). */
  promptCache(): PromptCacheInfo {
    return this.native.promptCache();
  }

  /** The model's chat template, or `source` in its place, with this model's bos/eos tokens. */
  async chatTemplate(source = ""): Promise<ChatTemplate> {
    // with a model, llama.cpp takes bos/eos from its vocabulary even for an override
    const checked: GuardedTemplates = {
      override: source,
      model: this.templates,
      tokens: { bos: this.info.bosText, eos: this.info.eosText },
    };
    await guarded((g) => g.checkTemplates(checked));
    try {
      return new ChatTemplate(await this.native.chatTemplates(source), checked);
    } catch (e) {
      throw fromNative(e);
    }
  }

  /**
   * Generates from prompt tokens; requests run one after another in call order. The KV cache keeps the
   * longest common prefix with the previous request. Rejects with ContextOverflowError before decoding
   * when prompt + maxTokens exceed the context. An aborted signal ends it with stopReason "abort".
   */
  async generate(prompt: readonly number[], options: GenerateOptions): Promise<GenerateResult> {
    const { signal, onToken, jsonSchema, logitBias, logprobs, ...rest } = options;
    // the chat prompt goes as the native handle it is: the engine joins its constraints to these fields
    const params = {
      ...rest,
      logitBias: logitBias && Object.entries(logitBias).map(([token, bias]) => [Number(token), bias]),
      prompt,
      jsonSchema: jsonSchema === undefined ? undefined : JSON.stringify(jsonSchema),
      logprobs: logprobs !== undefined,
      topLogprobs: logprobs?.top,
      aborted: signal?.aborted,
    };
    let handle: ReturnType<NativeEngine["generate"]>;
    try {
      handle = this.native.generate(
        params,
        onToken &&
          ((token, text, lp, cachedTokens, deltas) =>
            onToken({ token, text, cachedTokens, ...(lp ? { logprobs: lp } : {}), ...(deltas ? { deltas } : {}) })),
      );
    } catch (e) {
      throw fromNative(e);
    }
    const abort = () => handle.abort();
    signal?.addEventListener("abort", abort, { once: true });
    try {
      const r = await handle.done;
      return {
        tokens: Array.from(r.tokens),
        text: r.text,
        stopReason: r.stopReason,
        stopString: r.stopString,
        ...(r.logprobs ? { logprobs: r.logprobs } : {}),
        ...(options.parseMessage
          ? r.messageError === undefined
            ? { messageDeltas: r.messageDeltas ?? [] }
            : { messageError: fromNative(r.messageError) }
          : {}),
        stats: deriveStats(r.stats),
      };
    } catch (e) {
      throw fromNative(e);
    } finally {
      signal?.removeEventListener("abort", abort);
    }
  }

  /** Aborts running and queued generations and frees the models; the engine cannot be used afterwards. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.native.close();
  }
}
