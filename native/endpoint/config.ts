// `chat-template serve` flags → the endpoint's configuration. A usage error here exits 2 before anything binds.
import { isIP } from "node:net";
import { type CommandHelp, UsageError, intOption, onOff, parseArgs } from "../../server/src/commandLine";
import { normalOrigin } from "./http/origin";

export const help: CommandHelp = {
  usage:
    "chat-template serve [--target FILE [--draft FILE]] [--chat-template-file FILE [--chat-template-mirror-of NAME]] [--host ADDR] [--port N] [--api-key KEY] [--allowed-origins LIST] " +
    "[--context N] [--gpu-layers N] [--threads N] [--draft-max N] [--draft-adaptive on|off] [--draft-window N] [--cache-ram MiB] [--sse-ping-interval S] [--max-tokens-overflow clamp|reject] [--queue N] [--model-name NAME] [--keep-client-billing-header] [--verbose] [--exit-on-stdin-close]",
  summary: "serve a GGUF (with a DFlash draft) over OpenAI- and Anthropic-compatible HTTP, using your template",
  description:
    "Starts an HTTP server on the native engine (linux-x64): OpenAI chat completions and completions, Anthropic " +
    "Messages, llama-server's tokenize, apply-template, props, slots and metrics, and /chat/parse. Each chat request " +
    "is rendered as llama-server renders it, with the GGUF's template or --chat-template-file (reloaded when it " +
    "changes; a broken save keeps the last good one). With --draft, decoding is DFlash speculative decoding: the " +
    "output is the target's own, faster when the draft guesses well. Without --target it serves tiny demo models " +
    "(random weights). stdout has one JSON line per event (listening, ready, template, error); people read stderr, " +
    "one line per request.",
  options: [
    ["--target FILE", "the model GGUF (default: the demo pair)"],
    ["--draft FILE", "its DFlash draft GGUF (default: plain decoding)"],
    ["--chat-template-file FILE", "the template to serve instead of the GGUF's own, reloaded as it changes"],
    ["--chat-template-mirror-of NAME", "the file is an editor's copy of NAME: messages name NAME"],
    ["--host ADDR", "address to bind (default 127.0.0.1; any other needs an API key)"],
    ["--port N", "port (default 8080; 0 picks a free one)"],
    ["--api-key KEY", "require Authorization: Bearer KEY (or $CHAT_TEMPLATE_API_KEY)"],
    ["--allowed-origins LIST", "comma-separated web origins whose pages may call the endpoint (CORS)"],
    ["--context N", "context size in tokens (default 4096)"],
    ["--gpu-layers N", "target layers on the GPU (default -1: all)"],
    ["--threads N", "CPU threads (default: one for the demo and other models narrower than 512, else llama.cpp's choice)"],
    ["--draft-max N", "most tokens drafted per step (default: the draft's block size - 1)"],
    ["--draft-adaptive on|off", "choose each step's draft length for speed (default on)"],
    ["--draft-window N", "positions of the target's features the draft attends to (default: the draft's own)"],
    ["--cache-ram MiB", "host memory for saved conversations' KV state (default 8192; 0: off)"],
    ["--sse-ping-interval S", "a keep-alive event after S silent seconds on a stream, during a prefill too (default 30; -1: none)"],
    ["--max-tokens-overflow clamp|reject", "OpenAI routes: max_tokens past the room left is cut to it (clamp, default) or a 400"],
    ["--queue N", "requests that may wait while one generates (default 16; more get 429)"],
    ["--model-name NAME", "the model id in responses (default: the target's file name)"],
    [
      "--keep-client-billing-header",
      "keep Claude Code's x-anthropic-billing-header system block (default: dropped, so the prompt cache survives)",
    ],
    ["--verbose", "the request log line also shows 30 characters either side of where a prompt left the cache"],
    ["--exit-on-stdin-close", "stop when stdin ends (for a parent process)"],
  ],
  examples: [
    "chat-template serve",
    "chat-template serve --target model.gguf --draft dflash.gguf --chat-template-file chat_template.jinja --port 8080",
    "CHAT_TEMPLATE_API_KEY=secret chat-template serve --host 0.0.0.0 --target model.gguf",
  ],
  exitCodes: [
    [0, "stopped by SIGINT or SIGTERM"],
    [1, "a model or template file is missing, or the address cannot be bound"],
    [2, "usage error, including a non-loopback --host without an API key"],
  ],
};

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
    port: intOption("port", v("port"), 0, 65535) ?? DEFAULT_PORT,
    apiKey,
    allowedOrigins,
    contextSize: intOption("context", v("context"), 64, 1 << 24) ?? DEFAULT_CONTEXT,
    gpuLayers: intOption("gpu-layers", v("gpu-layers"), -1, 100000),
    threads: intOption("threads", v("threads"), 1, 1024),
    draftMax: intOption("draft-max", v("draft-max"), 1, 1024),
    draftAdaptive: onOff("draft-adaptive", v("draft-adaptive"), true),
    draftWindow: intOption("draft-window", v("draft-window"), 1, 1 << 24),
    cacheRamMiB: intOption("cache-ram", v("cache-ram"), 0, 1 << 24) ?? DEFAULT_CACHE_RAM_MIB,
    ssePingSeconds: ssePing(v("sse-ping-interval")),
    maxTokensOverflow: maxTokensOverflow(v("max-tokens-overflow")),
    maxQueue: intOption("queue", v("queue"), 0, 100000) ?? DEFAULT_QUEUE,
    modelName: v("model-name"),
    keepClientBillingHeader: args.switches.has("keep-client-billing-header"),
    verbose: args.switches.has("verbose"),
    exitOnStdinClose: args.switches.has("exit-on-stdin-close"),
  };
}
