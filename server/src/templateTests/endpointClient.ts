// The OpenAI-compatible HTTP calls of live cases: which server and model answer at a URL, and one chat
// completion. Any such server works (ours, llama-server, vLLM, SGLang); only ours and vLLM take a
// per-request template (`chat_template`), so only there does a case run with the template under test.
export class EndpointError extends Error {}

export interface Endpoint {
  /** Without a trailing slash or /v1. */
  base: string;
  model: string;
  /** /v1/models' owned_by: "chat-template-studio" (ours), "vllm", "llamacpp", "sglang", … */
  server: string;
  /** Whether requests can carry the template under test. */
  takesTemplate: boolean;
  /** Ours, serving its demo models (random weights). */
  demo: boolean;
  apiKey?: string;
}

/** Servers known to render a request with its `chat_template` field. */
const TEMPLATE_FIELD_SERVERS = new Set(["chat-template-studio", "vllm"]);
/** Guards a run against a server that stops answering; no case waits longer for one request. */
export const REQUEST_TIMEOUT_MS = 300_000;

function headers(apiKey: string | undefined): Record<string, string> {
  return { "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) };
}

export async function openEndpoint(
  url: string,
  apiKey = process.env.CHAT_TEMPLATE_API_KEY ?? process.env.OPENAI_API_KEY,
): Promise<Endpoint> {
  let base: string;
  try {
    base = new URL(url).href.replace(/\/+$/, "").replace(/\/v1$/, "");
  } catch {
    throw new EndpointError(`--endpoint must be a URL such as http://127.0.0.1:8080 (got '${url}')`);
  }
  let body: { data?: { id?: string; owned_by?: string; meta?: { demo?: boolean } }[] };
  try {
    const res = await fetch(`${base}/v1/models`, { headers: headers(apiKey), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    if (!res.ok) throw new EndpointError(`${base}/v1/models answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    body = (await res.json()) as typeof body;
  } catch (e) {
    if (e instanceof EndpointError) throw e;
    throw new EndpointError(`cannot reach ${base}: ${(e as Error).cause ?? (e as Error).message}`);
  }
  const model = body.data?.[0];
  if (!model?.id) throw new EndpointError(`${base}/v1/models lists no model`);
  const server = model.owned_by ?? "unknown";
  return { base, model: model.id, server, takesTemplate: TEMPLATE_FIELD_SERVERS.has(server), demo: model.meta?.demo === true, apiKey };
}

export interface Completion {
  status: number;
  /** choices[0].message when the status is 200. */
  message?: Record<string, unknown>;
  /** The error's message otherwise. */
  error?: string;
  promptTokens: number;
  completionTokens: number;
  ms: number;
}

export async function chatCompletion(endpoint: Endpoint, body: Record<string, unknown>): Promise<Completion> {
  const started = performance.now();
  let res: Response;
  let json: {
    usage?: { prompt_tokens?: number; completion_tokens?: number };
    error?: { message?: unknown };
    message?: unknown;
    choices?: { message?: Completion["message"] }[];
  } | null;
  try {
    res = await fetch(`${endpoint.base}/v1/chat/completions`, {
      method: "POST",
      headers: headers(endpoint.apiKey),
      body: JSON.stringify({ model: endpoint.model, ...body }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    json = await res.json().catch(() => ({}));
  } catch (e) {
    throw new EndpointError(`${endpoint.base}/v1/chat/completions: ${(e as Error).cause ?? (e as Error).message}`);
  }
  const ms = performance.now() - started;
  const usage = { promptTokens: json?.usage?.prompt_tokens ?? 0, completionTokens: json?.usage?.completion_tokens ?? 0, ms };
  if (res.status !== 200) return { status: res.status, error: String(json?.error?.message ?? json?.message ?? res.statusText), ...usage };
  const message = json?.choices?.[0]?.message;
  if (!message || typeof message !== "object") return { status: res.status, error: "the answer has no choices[0].message", ...usage };
  return { status: 200, message, ...usage };
}

/** What a report on this endpoint must say: whose template answered, and that demo models say nothing of a real one. */
export function endpointNotes(e: Endpoint): string[] {
  return [
    ...(e.takesTemplate
      ? []
      : [`${e.base} (${e.server}) takes no per-request chat template, so live cases ran with the template it serves, not the test file's`]),
    ...(e.demo ? ["the endpoint serves its demo models (random weights): these rates say nothing about a real model"] : []),
  ];
}
