// The language model chat provider's work, without VS Code: which models the endpoint serves (only while
// it is healthy), a chat request streamed back as parts, token counts by the endpoint's tokenizer. The
// same code serves the bundled endpoint and an external one (vLLM, SGLang, llama-server, another machine's
// bundled endpoint); lm/register.ts adapts it to vscode.lm.
import { EndpointClient, EndpointHttpError, type Connection } from "../endpoint/http";
import { countableText, toChatRequest, type ChatMessageLike, type RequestOptionsLike } from "./messages";
import type { GenerationStats } from "../endpoint/stats";
import { ChatResponseReader, type PartFactory } from "./response";

export interface ChatModelInfo {
  id: string;
  name: string;
  family: string;
  version: string;
  detail: string;
  tooltip: string;
  maxInputTokens: number;
  maxOutputTokens: number;
  capabilities: { toolCalling: boolean; imageInput: boolean };
}

export interface ProviderOptions {
  /** The endpoint to use now; null when there is none (stopped, untrusted workspace, not configured). */
  connection(): Promise<Connection | null>;
  onStats?(stats: GenerationStats): void;
  log?(line: string): void;
}

/** When a server says nothing about its context (a context it does not report). */
const FALLBACK_CONTEXT = 4096;

/** One entry of GET /v1/models → what VS Code lists; the context size as ours, vLLM or llama-server report it. */
export function modelInfo(entry: Record<string, unknown>, url: string): ChatModelInfo {
  const meta = (entry.meta ?? {}) as Record<string, unknown>;
  const context =
    [meta.context_size, entry.max_model_len, meta.n_ctx_train].find((v): v is number => typeof v === "number" && v > 0) ?? FALLBACK_CONTEXT;
  const id = String(entry.id);
  const draft = (meta.draft as { name?: string } | null | undefined)?.name;
  const detail = meta.demo === true ? "demo, random weights" : draft ? `DFlash draft ${draft}` : new URL(url).host;
  // a quarter of the context is kept for the answer; VS Code fits the prompt into the rest
  const maxOutputTokens = Math.floor(context / 4);
  return {
    id,
    name: typeof entry.display_name === "string" ? entry.display_name : id,
    family: id,
    version: "1",
    detail,
    tooltip: `${id} at ${url}, context ${context} tokens`,
    maxInputTokens: context - maxOutputTokens,
    maxOutputTokens,
    capabilities: { toolCalling: true, imageInput: false },
  };
}

export class EndpointChatProvider {
  /** Servers found to lack count_tokens; their counts are estimated. */
  private readonly noCountRoute = new Set<string>();

  constructor(private readonly o: ProviderOptions) {}

  private async client(): Promise<EndpointClient> {
    const c = await this.o.connection();
    if (!c) throw new Error("the chat template endpoint is not running (Chat Template: Start Endpoint)");
    return new EndpointClient(c);
  }

  /** The served models while the endpoint answers /health with 200; none otherwise (never an error). */
  async models(signal?: AbortSignal): Promise<ChatModelInfo[]> {
    const c = await this.o.connection();
    if (!c) return [];
    const client = new EndpointClient(c);
    try {
      await client.get("/health", signal);
      const list = (await client.get("/v1/models", signal)) as { data?: Record<string, unknown>[] };
      return (list.data ?? []).map((m) => modelInfo(m, c.url));
    } catch (e) {
      this.o.log?.(`chat models: none listed: ${(e as Error).message}`);
      return [];
    }
  }

  /** Streams the answer as parts; rejects with the signal's reason when cancelled (the request is aborted). */
  async respond<P>(
    model: string,
    messages: readonly ChatMessageLike[],
    options: RequestOptionsLike,
    parts: PartFactory<P>,
    report: (p: P) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const client = await this.client();
    const reader = new ChatResponseReader(parts, report);
    for await (const chunk of client.stream("/v1/chat/completions", toChatRequest(model, messages, options), signal)) reader.push(chunk);
    reader.end();
    if (reader.stats) this.o.onStats?.(reader.stats);
  }

  /** The endpoint's count of the text as one user message of its template (count_tokens); estimated where the server has no such route. */
  async countTokens(model: string, input: string | ChatMessageLike, signal?: AbortSignal): Promise<number> {
    const text = countableText(input);
    if (!text) return 0;
    const client = await this.client();
    if (!this.noCountRoute.has(client.connection.url)) {
      try {
        const r = (await client.post("/v1/messages/count_tokens", { model, messages: [{ role: "user", content: text }] }, signal)) as {
          input_tokens: number;
        };
        return r.input_tokens;
      } catch (e) {
        if (!(e instanceof EndpointHttpError && (e.status === 404 || e.status === 405))) throw e;
        this.noCountRoute.add(client.connection.url);
        this.o.log?.(`${client.connection.url} has no /v1/messages/count_tokens: token counts are estimated (4 characters a token)`);
      }
    }
    return Math.ceil(text.length / 4);
  }
}
