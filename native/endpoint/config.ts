// `chat-template serve` flags → the endpoint's configuration. A usage error here exits 2 before anything binds.
import { isIP } from "node:net";
import { UsageError, parseArgs } from "../../server/src/cli/args";

export const usage =
  "chat-template serve [--target FILE [--draft FILE]] [--chat-template-file FILE [--chat-template-mirror-of NAME]] [--host ADDR] [--port N] [--api-key KEY] " +
  "[--context N] [--gpu-layers N] [--threads N] [--cache-ram MiB] [--queue N] [--model-name NAME] [--exit-on-stdin-close]";

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
  contextSize: number;
  gpuLayers?: number;
  threads?: number;
  /** Host memory (MiB) for the KV state of earlier conversations (the prompt cache); 0: none. */
  cacheRamMiB: number;
  /** Requests that may wait while one generates; more get 429. */
  maxQueue: number;
  modelName?: string;
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

export function isLoopback(host: string): boolean {
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1";
}

function int(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^-?\d+$/.test(value) || n < min || n > max) throw new UsageError(`--${flag} must be an integer from ${min} to ${max} (got '${value}')`);
  return n;
}

export function parseServeArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ServeConfig {
  const args = parseArgs(argv, {
    values: ["target", "draft", "chat-template-file", "chat-template-mirror-of", "host", "port", "api-key", "context", "gpu-layers", "threads", "cache-ram", "queue", "model-name"],
    switches: ["exit-on-stdin-close"],
  });
  if (args.positionals.length) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const v = (name: string) => args.values.get(name);
  if (v("draft") !== undefined && v("target") === undefined) throw new UsageError("--draft needs --target (without --target the demo pair is served)");
  if (v("chat-template-mirror-of") !== undefined && v("chat-template-file") === undefined) throw new UsageError("--chat-template-mirror-of needs --chat-template-file (the copy it names)");
  const host = v("host") ?? "127.0.0.1";
  if (host !== "localhost" && isIP(host) === 0) throw new UsageError(`--host must be an IP address or localhost (got '${host}')`);
  const apiKey = v("api-key") ?? (env[API_KEY_ENV] || undefined);
  if (apiKey !== undefined && apiKey.trim() === "") throw new UsageError("--api-key must not be empty");
  // anyone who can reach a non-loopback address could use the model: refuse to serve it without a key
  if (!isLoopback(host) && apiKey === undefined) {
    throw new UsageError(`--host ${host} is not a loopback address: it needs an API key (--api-key KEY or $${API_KEY_ENV})`);
  }
  return {
    target: v("target"),
    draft: v("draft"),
    chatTemplateFile: v("chat-template-file"),
    chatTemplateMirrorOf: v("chat-template-mirror-of"),
    host,
    port: int(v("port"), "port", 0, 65535) ?? DEFAULT_PORT,
    apiKey,
    contextSize: int(v("context"), "context", 64, 1 << 24) ?? DEFAULT_CONTEXT,
    gpuLayers: int(v("gpu-layers"), "gpu-layers", -1, 100000),
    threads: int(v("threads"), "threads", 1, 1024),
    cacheRamMiB: int(v("cache-ram"), "cache-ram", 0, 1 << 24) ?? DEFAULT_CACHE_RAM_MIB,
    maxQueue: int(v("queue"), "queue", 0, 100000) ?? DEFAULT_QUEUE,
    modelName: v("model-name"),
    exitOnStdinClose: args.switches.has("exit-on-stdin-close"),
  };
}
