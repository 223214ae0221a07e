// The Claude Agent SDK end to end (issue 26): `query()` from @anthropic-ai/claude-agent-sdk (which runs its bundled
// Claude Code) against `chat-template serve` on the demo models, set up as an SDK user would: a system prompt of its
// own and only the Bash tool, so the first prompt is a few thousand tokens rather than Claude Code's ~53k. The demo
// model drives the loop (native/endpoint/chat/agentDemo.ts): its first answer calls Bash with `ls`, which the SDK really
// runs in the working folder, and its second quotes the listing, in which the file this test put there must appear.
// Run by test/agents/claude-agent-sdk.sh, which installs the pinned SDK and cuts the network off.
// Usage: node --import tsx test/agents/claudeAgentSdk.ts TOOLS_DIR
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startEndpoint } from "../helpers/endpoint";
import { describeCounts, requestCounts } from "./requests";
import { PROBE } from "./suite";

// room for the 32000 max_tokens Claude Code asks of a model it does not know, beside its ~4.4k-token prompt
const CONTEXT = 65536;

// The parts of the SDK's messages this test reads (the SDK lives in the tools cache, not in the project).
interface Block {
  type: string;
  name?: string;
  input?: { command?: string };
  content?: unknown;
}
interface Message {
  type: string;
  subtype?: string;
  message?: { content?: string | Block[] };
  result?: string;
  is_error?: boolean;
  num_turns?: number;
}
interface Sdk {
  query(params: { prompt: string; options: object }): AsyncIterable<Message>;
}

const blocks = (m: Message): Block[] => (Array.isArray(m.message?.content) ? m.message.content : []);
const textOf = (content: unknown): string =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map((p: { text?: string }) => p.text ?? "").join("") : "";

/** What is wrong with the run, or null: Bash ran `ls`, its result listed the probe, the final answer quotes it. */
function problem(messages: Message[]): string | null {
  const result = messages.find((m) => m.type === "result");
  if (!result || result.subtype !== "success" || result.is_error)
    return `no successful result: ${JSON.stringify(result ?? messages.at(-1)).slice(0, 600)}`;
  const call = messages.flatMap(blocks).find((b) => b.type === "tool_use");
  if (call?.name !== "Bash" || call.input?.command !== "ls") return `no Bash call running ls: ${JSON.stringify(call)}`;
  const output = messages.flatMap(blocks).find((b) => b.type === "tool_result");
  if (!textOf(output?.content).includes(PROBE)) return `the tool's result does not list ${PROBE}: ${JSON.stringify(output)}`;
  if (!result.result?.includes(PROBE)) return `the final answer does not quote ${PROBE}: ${JSON.stringify(result.result)}`;
  return null;
}

async function main(): Promise<number> {
  const tools = process.argv[2];
  if (!tools) throw new Error("usage: claudeAgentSdk.ts TOOLS_DIR");
  const entry = createRequire(join(tools, "package.json")).resolve("@anthropic-ai/claude-agent-sdk");
  const sdk = (await import(pathToFileURL(entry).href)) as Sdk;
  const scratch = mkdtempSync(join(tmpdir(), "cts-agent-sdk-"));
  const workdir = join(scratch, "work");
  mkdirSync(workdir);
  writeFileSync(join(workdir, PROBE), "");
  const started = Date.now();
  const endpoint = await startEndpoint(["--context", String(CONTEXT)], { viaCli: true });
  const messages: Message[] = [];
  let stderr = "";
  let requests: Map<string, number>;
  try {
    const options = {
      cwd: workdir,
      model: "demo-random",
      systemPrompt: "You are a concise assistant. Use the Bash tool to look at the working folder.",
      tools: ["Bash"],
      allowedTools: ["Bash(ls)"],
      settingSources: [],
      maxTurns: 4,
      // the SDK's env replaces the process's: only what the run needs, the endpoint as its API
      env: {
        PATH: process.env.PATH ?? "",
        HOME: scratch,
        ANTHROPIC_BASE_URL: endpoint.url,
        ANTHROPIC_API_KEY: "dummy",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
      },
      stderr: (data: string) => (stderr += data),
    };
    try {
      for await (const m of sdk.query({ prompt: "Which files are here?", options })) messages.push(m);
    } catch (e) {
      // the SDK throws when its Claude Code exits abnormally: reported as the run's last message
      messages.push({ type: "error", result: e instanceof Error ? e.message : String(e) });
    }
    requests = await requestCounts(endpoint.url, "/v1/messages");
  } finally {
    await endpoint.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
  const failure = problem(messages);
  const result = messages.find((m) => m.type === "result");
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `[claude-agent-sdk] --context ${CONTEXT} runs ls and quotes it: ${failure ? "FAIL" : "ok"} in ${seconds} s (${result?.num_turns ?? "?"} turns, /v1/messages ${describeCounts(requests)})`,
  );
  console.log(`[claude-agent-sdk]   result: ${JSON.stringify((result?.result ?? "").slice(0, 200))}`);
  for (const line of endpoint.stderr.split("\n").filter((l) => / \/v1\/messages /.test(l)))
    console.log(`[claude-agent-sdk]   endpoint: ${line}`);
  if (failure) {
    console.log(`[claude-agent-sdk]   ${failure}`);
    if (stderr) console.log(`[claude-agent-sdk]   its stderr: ${stderr.slice(-1500)}`);
  }
  return failure ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`[claude-agent-sdk] ${e instanceof Error ? e.stack : String(e)}`);
    process.exit(1);
  },
);
