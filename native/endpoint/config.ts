// `chat-template serve` flags → the endpoint's configuration. A usage error here exits 2 before anything binds.
import { isIP } from "node:net";
import { UsageError, onOff, parseArgs } from "../../server/src/commandLine";
import { normalOrigin } from "./origin";

export const usage =
  "chat-template serve [--target FILE [--draft FILE]] [--chat-template-file FILE [--chat-template-mirror-of NAME]] [--host ADDR] [--port N] [--api-key KEY] [--allowed-origins LIST] " +
  "[--context N] [--gpu-layers N] [--threads N] [--draft-max N] [--draft-adaptive on|off] [--draft-window N] [--cache-ram MiB] [--sse-ping-interval S] [--max-tokens-overflow clamp|reject] [--queue N] [--model-name NAME] [--keep-client-billing-header] [--verbose] [--exit-on-stdin-close]";

export interface ServeConfig {
  /** Absent: the demo pair (random weights). */
  target?: string;
  draft?: string;
  chatTemplateFile?: string;
  /**
   * The file that chatTemplateFile is a copy of, kept by an editor as it is edited (unsaved text included):
   * messages name it instead of the copy. The process that started the endpoint renames it on stdin.
   */
  chatTemplateMirrorOf?: string;
  host: string;
  /** 0: the system picks a free port (printed on stdout). */
  port: number;
  apiKey?: string;
  /** Web origins (besides the endpoint's own) whose pages may call it; they get CORS headers. */
  allowedOrigins: string[];
  contextSize: number;
  gpuLayers?: number;
  threads?: number;
  /** Tokens drafted per step at most; absent: the draft's block size - 1. */
  draftMax?: number;
  /** Choose each step's draft length (0: a plain step) for speed; false drafts draftMax every step. */
  draftAdaptive: boolean;
  /** Positions the draft attends to, replacing its metadata's sliding window; absent: the draft's own. */
  draftWindow?: number;
  /** Host memory (MiB) for the KV state of earlier conversations (the prompt cache); 0: none. */
  cacheRamMiB: number;
  /** Seconds between keep-alive comments on a silent stream (llama-server's --sse-ping-interval); -1: none. */
  ssePingSeconds: number;
  /**
   * An OpenAI request whose max_tokens passes the room the prompt leaves: cut to that room (llama-server's way,
   * which agents that ask for 64000 rely on) or refused with a 400. Anthropic's route always refuses.
   */
  maxTokensOverflow: "clamp" | "reject";
  /** Requests that may wait while one generates; more get 429. */
  maxQueue: number;
  modelName?: string;
  /**
   * Keep the `x-anthropic-billing-header:` system block Claude Code sends first: its value changes every request, so by
   * default it is dropped before rendering, or nothing after it could come from the prompt cache.
   */
  keepClientBillingHeader: boolean;
  /** Debug lines too: the rendered text either side of where a prompt left the cache. */
  verbose: boolean;
  /** Stop when stdin ends: a parent that holds a pipe to it takes the endpoint with it when it dies. */
  exitOnStdinClose: boolean;
}

/** Where the key may come from besides the flag, so that it does not show in `ps`. */
export const API_KEY_ENV = "CHAT_TEMPLATE_API_KEY";

export const DEFAULT_PORT = 8080;
export const DEFAULT_CONTEXT = 4096;
export const DEFAULT_QUEUE = 16;
/** llama-server's --cache-ram default. */
export const DEFAULT_CACHE_RAM_MIB = 8192;
/** llama-server's --sse-ping-interval default. */
export const DEFAULT_SSE_PING_SECONDS = 30;

export function isLoopback(host: string): boolean {
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1";
}

function int(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^-?\d+$/.test(value) || n < min || n > max)
    throw new UsageError(`--${flag} must be an integer from ${min} to ${max} (got '${value}')`);
  return n;
}

function ssePing(value: string | undefined): number {
  if (value === undefined) return DEFAULT_SSE_PING_SECONDS;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || (n <= 0 && n !== -1) || n > 3600) {
    throw new UsageError(`--sse-ping-interval must be seconds from 0.001 to 3600, or -1 for none (got '${value}')`);
  }
  return n;
}

function maxTokensOverflow(value: string | undefined): ServeConfig["maxTokensOverflow"] {
  if (value === undefined || value === "clamp" || value === "reject") return value ?? "clamp";
  throw new UsageError(`--max-tokens-overflow must be clamp or reject (got '${value}')`);
}

export function parseServeArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ServeConfig {
  const args = parseArgs(argv, {
    values: [
      "target",
      "draft",
      "chat-template-file",
      "chat-template-mirror-of",
      "host",
      "port",
      "api-key",
      "allowed-origins",
      "context",
      "gpu-layers",
      "threads",
      "draft-max",
      "draft-adaptive",
      "draft-window",
      "cache-ram",
      "sse-ping-interval",
      "max-tokens-overflow",
      "queue",
      "model-name",
    ],
    switches: ["exit-on-stdin-close", "keep-client-billing-header", "verbose"],
  });
  if (args.positionals.length) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const v = (name: string) => args.values.get(name);
  if (v("draft") !== undefined && v("target") === undefined)
    throw new UsageError("--draft needs --target (without --target the demo pair is served)");
  if (v("chat-template-mirror-of") !== undefined && v("chat-template-file") === undefined)
    throw new UsageError("--chat-template-mirror-of needs --chat-template-file (the copy it names)");
  const host = v("host") ?? "127.0.0.1";
  if (host !== "localhost" && isIP(host) === 0) throw new UsageError(`--host must be an IP address or localhost (got '${host}')`);
  const apiKey = v("api-key") ?? (env[API_KEY_ENV] || undefined);
  if (apiKey !== undefined && apiKey.trim() === "") throw new UsageError("--api-key must not be empty");
  // anyone who can reach a non-loopback address could use the model: refuse to serve it without a key
  if (!isLoopback(host) && apiKey === undefined) {
    throw new UsageError(`--host ${host} is not a loopback address: it needs an API key (--api-key KEY or $${API_KEY_ENV})`);
  }
  const allowedOrigins = (v("allowed-origins") ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter((o) => o !== "")
    .map((o) => {
      const origin = normalOrigin(o);
      if (origin === undefined)
        throw new UsageError(`--allowed-origins takes comma-separated origins like http://localhost:3000 (got '${o}')`);
      return origin;
    });
  return {
    target: v("target"),
    draft: v("draft"),
    chatTemplateFile: v("chat-template-file"),
    chatTemplateMirrorOf: v("chat-template-mirror-of"),
    host,
    port: int(v("port"), "port", 0, 65535) ?? DEFAULT_PORT,
    apiKey,
    allowedOrigins,
    contextSize: int(v("context"), "context", 64, 1 << 24) ?? DEFAULT_CONTEXT,
    gpuLayers: int(v("gpu-layers"), "gpu-layers", -1, 100000),
    threads: int(v("threads"), "threads", 1, 1024),
    draftMax: int(v("draft-max"), "draft-max", 1, 1024),
    draftAdaptive: onOff("draft-adaptive", v("draft-adaptive"), true),
    draftWindow: int(v("draft-window"), "draft-window", 1, 1 << 24),
    cacheRamMiB: int(v("cache-ram"), "cache-ram", 0, 1 << 24) ?? DEFAULT_CACHE_RAM_MIB,
    ssePingSeconds: ssePing(v("sse-ping-interval")),
    maxTokensOverflow: maxTokensOverflow(v("max-tokens-overflow")),
    maxQueue: int(v("queue"), "queue", 0, 100000) ?? DEFAULT_QUEUE,
    modelName: v("model-name"),
    keepClientBillingHeader: args.switches.has("keep-client-billing-header"),
    verbose: args.switches.has("verbose"),
    exitOnStdinClose: args.switches.has("exit-on-stdin-close"),
  };
}
