// `chat-template bench --agent-session`: replays the synthetic agent session (agentSession.ts) through the endpoint's
// own request path (an endpoint in this process, POST /v1/messages as a client sends it) and prints, per turn, the
// prompt, the tokens the KV cache served, the prefill time and the time to the first token (a request of one token).
// What it measures is how much of each previous prompt the next one keeps: a template that renders earlier turns
// differently from how the model wrote them, or a client block that changes per request, shows here as prefill.
import { type CommandIO, intOption, parseArgs, UsageError } from "../../server/src/commandLine";
import { openLocalEndpoint, type LocalEndpoint } from "../endpoint";
import { agentSession, systemPrompt } from "./agentSession";

export const agentSessionUsage =
  "chat-template bench --agent-session [--json] [--template FILE] [--target FILE [--draft FILE]] [--system-tokens N] [--turns N] [--threads N] [--context N] [--gpu-layers N]";

/** Claude Code's system prompt and tool list are about this long. */
const DEFAULT_SYSTEM_TOKENS = 30_000;
const DEFAULT_TURNS = 10;

export interface AgentTurn {
  prompt: number;
  reused: number;
  ttft_ms: number;
  prefill_ms: number;
}

interface MessagesReply {
  usage: { input_tokens: number; cache_read_input_tokens: number };
  timings: { prompt_ms: number };
}

async function post<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = (await res.json()) as T & { error?: { message?: string } };
  if (!res.ok) throw new Error(`${url}: ${res.status} ${json.error?.message ?? JSON.stringify(json)}`);
  return json;
}

/** Lines of system prompt that make about `tokens` tokens with the served model's tokenizer. */
async function systemLinesFor(endpoint: LocalEndpoint, tokens: number): Promise<number> {
  const count = async (lines: number) =>
    (await post<{ tokens: number[] }>(`${endpoint.url}/tokenize`, { content: systemPrompt(lines) })).tokens.length;
  const [a, b] = [await count(10), await count(110)];
  return Math.max(1, Math.round(10 + ((tokens - a) * 100) / Math.max(1, b - a)));
}

export async function agentSessionBench(argv: string[], io: CommandIO): Promise<number> {
  const args = parseArgs(argv, {
    values: ["template", "target", "draft", "system-tokens", "turns", "threads", "context", "gpu-layers"],
    switches: ["agent-session", "json"],
  });
  if (args.positionals.length) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const v = (k: string) => args.values.get(k);
  const systemTokens = intOption("system-tokens", v("system-tokens"), 1) ?? DEFAULT_SYSTEM_TOKENS;
  const turns = intOption("turns", v("turns"), 1) ?? DEFAULT_TURNS;
  // the system prompt, the tools and ~300 tokens a turn, with room for a tokenizer coarser than the estimate
  const context = intOption("context", v("context"), 64) ?? Math.max(4096, Math.ceil(systemTokens * 1.25) + turns * 600 + 2048);
  const serveArgs = [
    ...(v("target") ? ["--target", v("target")!] : []),
    ...(v("draft") ? ["--draft", v("draft")!] : []),
    ...(v("template") ? ["--chat-template-file", v("template")!] : []),
    ...(v("gpu-layers") ? ["--gpu-layers", v("gpu-layers")!] : []),
    // the demo models are tiny: more threads only add synchronization
    ...(v("threads") || !v("target") ? ["--threads", v("threads") ?? "1"] : []),
    "--context",
    String(context),
  ];
  const endpoint = await openLocalEndpoint(serveArgs, (line) => io.stderr(`chat-template bench: ${line}\n`));
  try {
    const requests = agentSession({ systemLines: await systemLinesFor(endpoint, systemTokens), turns });
    io.stdout(`agent session: ${turns} turns on ${endpoint.model}, template ${endpoint.template}, context ${context}\n`);
    const out: AgentTurn[] = [];
    for (const [i, body] of requests.entries()) {
      const started = performance.now();
      const r = await post<MessagesReply>(`${endpoint.url}/v1/messages`, { ...body, max_tokens: 1, temperature: 0 });
      const ttft = performance.now() - started;
      const turn: AgentTurn = {
        prompt: r.usage.input_tokens + r.usage.cache_read_input_tokens,
        reused: r.usage.cache_read_input_tokens,
        ttft_ms: Math.round(ttft),
        prefill_ms: Math.round(r.timings.prompt_ms),
      };
      out.push(turn);
      const kept = i === 0 ? "" : ` (${((100 * turn.reused) / out[i - 1].prompt).toFixed(1)} % of turn ${i}'s prompt)`;
      io.stdout(
        `turn ${i + 1}: prompt ${turn.prompt} tokens, reused ${turn.reused}${kept}, prefill ${turn.prefill_ms} ms, first token ${turn.ttft_ms} ms\n`,
      );
    }
    if (args.switches.has("json")) io.stdout(JSON.stringify({ turns: out }) + "\n");
    return 0;
  } finally {
    await endpoint.close();
  }
}
