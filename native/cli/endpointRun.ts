// The endpoint's own request path for `bench --compare-llama`: a real `chat-template serve` child on a free
// loopback port, and chat requests through it, so the template, the tokenizer, HTTP and the queue are all in
// the figure that an agent sees.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { packageRoot } from "../../server/src/commandLine";
import type { RunFigures } from "./llamaContextRun";

const MODEL = "bench";

/** The part of a response's llama-server style `timings` read here. */
interface LlamaServerTimings {
  prompt_n: number;
  prompt_per_second: number;
  predicted_n: number;
  predicted_ms: number;
  predicted_per_second: number;
}

export interface EndpointChild {
  url: string;
  /** Prompt tokens in `text`, as the served model's tokenizer reads it. */
  countTokens(text: string): Promise<number>;
  /** One non-streamed chat request whose user message is `text`: figures from its llama-server style timings. */
  chat(text: string, maxTokens: number): Promise<RunFigures & { promptTokens: number }>;
  close(): Promise<void>;
}

export async function startEndpointChild(args: string[]): Promise<EndpointChild> {
  const child = spawn(process.execPath, [join(packageRoot(), "dist", "endpoint.js"), "--port", "0", "--model-name", MODEL, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const url = await readyUrl(child, () => stderr);
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await fetch(url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const json = (await res.json()) as T;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
  return {
    url,
    countTokens: async (text) => (await post<{ tokens: number[] }>("/tokenize", { content: text })).tokens.length,
    async chat(text, maxTokens) {
      const started = performance.now();
      const r = await post<{ timings: LlamaServerTimings }>("/v1/chat/completions", {
        model: MODEL,
        messages: [{ role: "user", content: text }],
        max_tokens: maxTokens,
        temperature: 0,
        ignore_eos: true,
      });
      const t = r.timings;
      // time to first token as the client sees it: the whole request less the decoding after the first token
      const decodeAfterFirst = t.predicted_n > 1 ? (t.predicted_ms * (t.predicted_n - 1)) / t.predicted_n : 0;
      return {
        prefill: t.prompt_per_second,
        decode: t.predicted_per_second,
        ttftMs: performance.now() - started - decodeAfterFirst,
        promptTokens: t.prompt_n,
      };
    },
    close: () => stop(child),
  };
}

function readyUrl(child: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let url = "";
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      const e = JSON.parse(line) as { event: string; url?: string; message?: string };
      if (e.event === "listening") url = e.url!;
      else if (e.event === "ready") resolve(url);
      else if (e.event === "error") reject(new Error(`the endpoint could not load the model: ${e.message}`));
    });
    child.on("exit", (code) => reject(new Error(`the endpoint exited (${code}) before it was ready:\n${stderr()}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.on("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
