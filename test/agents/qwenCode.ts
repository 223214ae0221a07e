// qwen-code end to end (issue 26): the real `qwen` in headless mode (`--output-format json`) against `chat-template
// serve` on the demo models, over OpenAI's chat completions, with its defaults: its stream idle guard (240 s without
// a data chunk) stays on, so the endpoint's keep-alive chunks must carry it through the prefill of its ~43k-token
// first prompt. The demo model's first answer calls run_shell_command with `ls` (allowed by --allowed-tools), which
// qwen-code really runs in the working folder; its second quotes the result, which must name PROBE.
// Run by test/agents/qwen-code.sh, which installs the pinned qwen-code and cuts the network off.
// Usage: node --import tsx test/agents/qwenCode.ts QWEN_BINARY
import { type ClientRun, runClient } from "./client";
import { PROBE, RUN_TIMEOUT_MS, runSuite, tail } from "./suite";

interface QwenMessage {
  type: string;
  subtype?: string;
  is_error?: boolean;
  result?: string;
  num_turns?: number;
}

interface QwenRun extends ClientRun {
  result: QwenMessage | undefined;
}

async function qwen(binary: string, url: string, home: string, workdir: string): Promise<QwenRun> {
  // the prompt first: --allowed-tools takes a list, which would swallow a prompt after it
  const args = [
    "Which files are here?",
    "--auth-type",
    "openai",
    "--openai-base-url",
    `${url}/v1`,
    "--openai-api-key",
    "dummy",
    "--model",
    "demo-random",
    "--output-format",
    "json",
    "--allowed-tools",
    "run_shell_command(ls)",
  ];
  const env = { PATH: process.env.PATH ?? "", HOME: home };
  const run = await runClient(binary, args, { cwd: workdir, env, timeoutMs: RUN_TIMEOUT_MS });
  let messages: QwenMessage[] = [];
  try {
    messages = JSON.parse(run.stdout) as QwenMessage[];
  } catch {
    // reported with the raw output
  }
  return { ...run, result: messages.find((m) => m.type === "result") };
}

function check(run: QwenRun): string | null {
  if (run.exitCode !== 0 || run.result?.is_error !== false)
    return `expected exit 0 and is_error false, got exit ${run.exitCode}: ${tail(run)}`;
  if ((run.result.num_turns ?? 0) < 2 || !run.result.result?.includes(PROBE))
    return `expected a tool round trip whose answer quotes ${PROBE}, got ${run.result.num_turns} turns`;
  return null;
}

const binary = process.argv[2];
if (!binary) throw new Error("usage: qwenCode.ts QWEN_BINARY");
runSuite<QwenRun>("qwen-code", "/v1/chat/completions", [
  {
    context: 65536,
    expect: "runs ls and quotes it",
    run: (url, home, workdir) => qwen(binary, url, home, workdir),
    check,
    answer: (run) => `${run.result?.num_turns ?? "?"} turns: ${run.result?.result ?? tail(run)}`,
    // qwen-code 0.24.4 settles a one-shot shell command on the child's `exit` event, before its stdout has been read
    // (the `close` event): on a busy machine `ls` then reports "Output: (empty)" with exit code 0
    clientFault: (run) => (run.result?.result?.includes("Output: (empty)") ? "its shell tool lost the output of ls" : null),
  },
]);
