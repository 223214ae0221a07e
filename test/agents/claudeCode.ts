// Claude Code end to end (issues 18, 26): the real `claude -p --output-format json` against `chat-template serve` on
// the demo models, at three context sizes around its first request (~53k tokens of the demo vocabulary, with
// max_tokens 32000 for a model it does not know). The demo model drives the agent loop (native/endpoint/agentDemo.ts):
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
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEndpoint } from "../helpers/endpoint";
import { describeCounts, requestCounts } from "./requests";

// far above a run on two cores (two prefills of ~56k tokens), below CI's 90 minutes
const RUN_TIMEOUT_MS = 25 * 60_000;

interface Scenario {
  context: number;
  expect: string;
  check(run: ClaudeRun, requests: Map<string, number>): string | null;
}

interface ClaudeRun {
  exitCode: number | null;
  json: { is_error?: boolean; result?: string; subtype?: string; num_turns?: number } | null;
  stdout: string;
  stderr: string;
}

const completed = (run: ClaudeRun) =>
  run.exitCode === 0 && run.json?.is_error === false
    ? null
    : `expected exit 0 and is_error false, got exit ${run.exitCode}: ${(run.json?.result ?? run.stdout + run.stderr).slice(0, 400)}`;

/** The file the tool round trip must find: `ls` ran in the working folder and the answer quotes its output. */
const PROBE = "cts-agent-probe.txt";

const roundTrip = (run: ClaudeRun) =>
  completed(run) ??
  ((run.json?.num_turns ?? 0) >= 2 && run.json?.result?.includes(PROBE)
    ? null
    : `expected a tool round trip whose answer quotes ${PROBE}, got ${run.json?.num_turns} turns: ${JSON.stringify(run.json?.result)}`);

const SCENARIOS: Scenario[] = [
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

function claude(binary: string, url: string, home: string, workdir: string): Promise<ClaudeRun> {
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: "dummy",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
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
  const child = spawn(binary, args, { cwd: workdir, env, stdio: ["ignore", "pipe", "pipe"] });
  let [stdout, stderr] = ["", ""];
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), RUN_TIMEOUT_MS);
  return new Promise((resolve) =>
    child.once("exit", (exitCode) => {
      clearTimeout(timer);
      let json: ClaudeRun["json"] = null;
      try {
        json = JSON.parse(stdout.trim().split("\n").pop() ?? "");
      } catch {
        // reported with the raw output
      }
      resolve({ exitCode, json, stdout, stderr });
    }),
  );
}

async function main(): Promise<number> {
  const [binary, ...contexts] = process.argv.slice(2);
  if (!binary) throw new Error("usage: claudeCode.ts CLAUDE_BINARY [CONTEXT…]");
  const scenarios = contexts.length
    ? contexts.map((c) => SCENARIOS.find((s) => String(s.context) === c) ?? assert.fail(`no scenario for --context ${c}`))
    : SCENARIOS;
  const scratch = mkdtempSync(join(tmpdir(), "cts-claude-code-"));
  let failures = 0;
  try {
    for (const s of scenarios) {
      const started = Date.now();
      const dir = mkdtempSync(join(scratch, `ctx-${s.context}-`));
      writeFileSync(join(dir, PROBE), "");
      const endpoint = await startEndpoint(["--context", String(s.context)], { viaCli: true });
      let run: ClaudeRun;
      let requests: Map<string, number>;
      try {
        run = await claude(binary, endpoint.url, dir, dir);
        requests = await requestCounts(endpoint.url, "/v1/messages");
      } finally {
        await endpoint.stop();
      }
      const problem = s.check(run, requests);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `[claude-code] --context ${s.context} ${s.expect}: ${problem ? "FAIL" : "ok"} in ${seconds} s (exit ${run.exitCode}, ${run.json?.num_turns ?? "?"} turns, /v1/messages ${describeCounts(requests)})`,
      );
      console.log(`[claude-code]   result: ${JSON.stringify((run.json?.result ?? "").slice(0, 200))}`);
      const log = endpoint.stderr.split("\n").filter((l) => / \/v1\/messages /.test(l));
      for (const line of log) console.log(`[claude-code]   endpoint: ${line}`);
      if (problem) {
        failures++;
        console.log(`[claude-code]   ${problem}`);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return failures ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`[claude-code] ${e instanceof Error ? e.stack : String(e)}`);
    process.exit(1);
  },
);
