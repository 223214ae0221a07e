// The Claude Agent SDK end to end (issue 26): `query()` from @anthropic-ai/claude-agent-sdk (which runs its bundled
// Claude Code) against `chat-template serve` on the demo models, set up as an SDK user would: a system prompt of its
// own and only the Bash tool, so the first prompt is a few thousand tokens rather than Claude Code's ~53k. The demo
// model drives the loop (native/endpoint/chat/agentDemo.ts): its first answer calls Bash with `ls`, which the SDK really
// runs in the working folder, and its second quotes the listing, in which the file this test put there must appear.
// Run by test/agents/claude-agent-sdk.sh, which installs the pinned SDK and cuts the network off.
// Usage: node --import tsx test/agents/claudeAgentSdk.ts TOOLS_DIR
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { claudeEnv } from "./claudeEnv";
import type { ClientRun } from "./client";
import { PROBE, runSuite } from "./suite";

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
/** The SDK's messages; exit 1 when the SDK threw (its Claude Code exited abnormally). */
interface SdkRun extends ClientRun {
  messages: Message[];
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

async function query(sdk: Sdk, url: string, home: string, workdir: string): Promise<SdkRun> {
  const started = Date.now();
  const messages: Message[] = [];
  let stderr = "";
  const options = {
    cwd: workdir,
    model: "demo-random",
    systemPrompt: "You are a concise assistant. Use the Bash tool to look at the working folder.",
    tools: ["Bash"],
    allowedTools: ["Bash(ls)"],
    settingSources: [],
    maxTurns: 4,
    // the SDK's env replaces the process's
    env: claudeEnv(url, home),
    stderr: (data: string) => (stderr += data),
  };
  let exitCode = 0;
  try {
    for await (const m of sdk.query({ prompt: "Which files are here?", options })) messages.push(m);
  } catch (e) {
    // the SDK throws when its Claude Code exits abnormally: reported as the run's last message
    messages.push({ type: "error", result: e instanceof Error ? e.message : String(e) });
    exitCode = 1;
  }
  return { exitCode, stdout: "", stderr, seconds: (Date.now() - started) / 1000, messages };
}

const tools = process.argv[2];
if (!tools) throw new Error("usage: claudeAgentSdk.ts TOOLS_DIR");
const entry = createRequire(join(tools, "package.json")).resolve("@anthropic-ai/claude-agent-sdk");
const sdk = import(pathToFileURL(entry).href) as Promise<Sdk>;
const result = (run: SdkRun) => run.messages.find((m) => m.type === "result");

runSuite<SdkRun>("claude-agent-sdk", "/v1/messages", [
  {
    context: CONTEXT,
    expect: "runs ls and quotes it",
    run: async (url, home, workdir) => query(await sdk, url, home, workdir),
    check: (run) => {
      const failure = problem(run.messages);
      return failure && run.stderr ? `${failure}; its stderr: ${run.stderr.slice(-1500)}` : failure;
    },
    answer: (run) => `${result(run)?.num_turns ?? "?"} turns: ${result(run)?.result ?? ""}`,
  },
]);
