// HTTP to an OpenAI-compatible endpoint — ours, or an external vLLM, SGLang or llama-server: JSON requests,
// server-sent-event streams, the API key, and errors that carry the server's own message. Every call
// takes an AbortSignal, so that cancelling in the editor closes the connection and the server stops
// generating.

export interface Connection {
  /** Base URL without a trailing slash, such as http://127.0.0.1:8080. */
  url: string;
  apiKey?: string;
}

export class EndpointHttpError extends Error {
  constructor(
    message: string,
    /** null when no HTTP answer came (refused connection, reset). */
    readonly status: number | null,
  ) {
    super(message);
  }
}

/** The message of an OpenAI ({"error": {"message"}}) or Anthropic ({"error": {"message"}, "type": "error"}) envelope. */
function errorMessage(body: unknown): string | null {
  const e = (body as { error?: unknown } | null)?.error;
  if (typeof e === "string") return e;
  const m = (e as { message?: unknown } | undefined)?.message;
  return typeof m === "string" ? m : null;
}

export class EndpointClient {
  constructor(readonly connection: Connection) {}

  private async send(method: "GET" | "POST", path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers["content-type"] = "application/json";
    if (this.connection.apiKey) headers.authorization = `Bearer ${this.connection.apiKey}`;
    let res: Response;
    try {
      res = await fetch(this.connection.url + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
    } catch (e) {
      if (signal?.aborted) throw e;
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new EndpointHttpError(`cannot reach ${this.connection.url}: ${cause?.code ?? cause?.message ?? (e as Error).message}`, null);
    }
    if (res.ok) return res;
    const text = await res.text();
    let message: string | null = null;
    try {
      message = errorMessage(JSON.parse(text));
    } catch {
      // not JSON: a proxy's page, or a server that answers in plain text
    }
    throw new EndpointHttpError(`${method} ${path}: ${res.status} ${message ?? (text.trim().slice(0, 200) || res.statusText)}`, res.status);
  }

  async get(path: string, signal?: AbortSignal): Promise<unknown> {
    const res = await this.send("GET", path, undefined, signal);
    const text = await res.text();
    // vLLM's /health answers 200 with an empty body
    return text ? JSON.parse(text) : null;
  }

  /** A body that is not JSON, such as /metrics' Prometheus text. */
  async text(path: string, signal?: AbortSignal): Promise<string> {
    return (await this.send("GET", path, undefined, signal)).text();
  }

  async post(path: string, body: unknown, signal?: AbortSignal): Promise<unknown> {
    return (await this.send("POST", path, body, signal)).json();
  }

  /** The `data:` payloads of a streamed response, parsed, up to `[DONE]`; an error event throws. */
  async *stream(path: string, body: unknown, signal?: AbortSignal): AsyncGenerator<Record<string, unknown>> {
    const res = await this.send("POST", path, body, signal);
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(bytes, { stream: true });
      let end: number;
      while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
        const data = block
          .split(/\r?\n/)
          .filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(5).trimStart())
          .join("\n");
        if (!data) continue;
        if (data === "[DONE]") return;
        const event = JSON.parse(data) as Record<string, unknown>;
        const message = errorMessage(event);
        if (message !== null) throw new EndpointHttpError(`POST ${path}: ${message}`, res.status);
        yield event;
      }
    }
  }
}
