// Claude Code end to end (issues 18, 26): the real `claude -p --output-format json` against `chat-template serve` on
// the demo models, at three context sizes around its first request (~53k tokens of the demo vocabulary, with
// max_tokens 32000 for a model it does not know). The demo model drives the agent loop (native/endpoint/chat/agentDemo.ts):
// its first answer calls Bash with `ls`, which Claude Code really runs (allowed by --allowedTools), and its second
// quotes the listing, in which the file this test put in the working folder must appear.
//   131072  the request fits                                  → a tool round trip, completes, exit 0
//    65536  the prompt fits, prompt + 32000 does not          → a 400 in Anthropic's words, Claude Code retries with
//                                                               the max_tokens that fits, and completes, exit 0
//    16384  the prompt alone does not fit                     → Claude Code's own "Prompt is too long", never a bare
//                                                               "API Error: 400"
// Run by test/agents/claude-code.sh, which installs the pinned Claude Code and cuts the network off.
// Usage: node --import tsx test/agents/claudeCode.ts CLAUDE_BINARY [CONTEXT…]
import assert from "node:assert/strict";
import { claudeEnv } from "./claudeEnv";
import { type ClientRun, runClient } from "./client";
import { PROBE, RUN_TIMEOUT_MS, runSuite, type Scenario } from "./suite";

interface ClaudeRun extends ClientRun {
  json: { is_error?: boolean; result?: string; subtype?: string; num_turns?: number } | null;
}

const completed = (run: ClaudeRun) =>
  run.exitCode === 0 && run.json?.is_error === false
    ? null
    : `expected exit 0 and is_error false, got exit ${run.exitCode}: ${(run.json?.result ?? run.stdout + run.stderr).slice(0, 400)}`;

const roundTrip = (run: ClaudeRun) =>
  completed(run) ??
  ((run.json?.num_turns ?? 0) >= 2 && run.json?.result?.includes(PROBE)
    ? null
    : `expected a tool round trip whose answer quotes ${PROBE}, got ${run.json?.num_turns} turns: ${JSON.stringify(run.json?.result)}`);

const SCENARIOS: Omit<Scenario<ClaudeRun>, "run" | "answer">[] = [
  { context: 131072, expect: "runs ls and quotes it", check: roundTrip },
  {
    context: 65536,
    expect: "retries with a smaller max_tokens and completes a tool round trip",
    check: (run, requests) =>
      roundTrip(run) ??
      ((requests.get("400") ?? 0) >= 1 && (requests.get("200") ?? 0) >= 1
        ? null
        : `expected a 400 then a 200, got ${JSON.stringify(Object.fromEntries(requests))}`),
  },
  {
    context: 16384,
    expect: `reaches Claude Code's "Prompt is too long"`,
    check: (run) => {
      const text = run.json?.result ?? run.stdout + run.stderr;
      if (/API Error: 400/.test(text)) return `a bare API error: ${text.slice(0, 400)}`;
      return /prompt is too long/i.test(text) ? null : `expected "Prompt is too long", got exit ${run.exitCode}: ${text.slice(0, 400)}`;
    },
  },
];

async function claude(binary: string, url: string, home: string, workdir: string): Promise<ClaudeRun> {
  const env = {
    ...claudeEnv(url, home),
    // A first answer waits for the CPU to prefill ~53k tokens, which on a busy machine takes longer than Claude Code
    // waits: 10 minutes for a request, and 5 for a stream's next event (the endpoint's keep-alive comments are not
    // events). Past them it aborts and retries, and only the prompt cache makes the retries progress.
    API_TIMEOUT_MS: String(RUN_TIMEOUT_MS),
    CLAUDE_STREAM_IDLE_TIMEOUT_MS: String(RUN_TIMEOUT_MS),
  };
  // The model name the endpoint serves: Claude Code does not know it, so it asks for max_tokens 32000. The random
  // demo model calls tools at random; without Agent no call starts a subagent, a second ~50k-token conversation
  // to prefill (the prompt stays ~53k tokens: the three context sizes keep their meaning).
  const args = [
    "-p",
    "--output-format",
    "json",
    "--model",
    "demo-random",
    "--disallowedTools=Agent",
    "--allowedTools=Bash(ls)",
    "--",
    "Which files are here?",
  ];
  const run = await runClient(binary, args, { cwd: workdir, env, timeoutMs: RUN_TIMEOUT_MS });
  let json: ClaudeRun["json"] = null;
  try {
    json = JSON.parse(run.stdout.trim().split("\n").pop() ?? "");
  } catch {
    // reported with the raw output
  }
  return { ...run, json };
}

const [binary, ...contexts] = process.argv.slice(2);
if (!binary) throw new Error("usage: claudeCode.ts CLAUDE_BINARY [CONTEXT…]");
const chosen = contexts.length
  ? contexts.map((c) => SCENARIOS.find((s) => String(s.context) === c) ?? assert.fail(`no scenario for --context ${c}`))
  : SCENARIOS;
runSuite(
  "claude-code",
  "/v1/messages",
  chosen.map((s): Scenario<ClaudeRun> => ({
    ...s,
    run: (url, home, workdir) => claude(binary, url, home, workdir),
    answer: (run) => `${run.json?.num_turns ?? "?"} turns: ${run.json?.result ?? ""}`,
  })),
);
