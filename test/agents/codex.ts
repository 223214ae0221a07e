// Codex CLI end to end (issue 26): the real `codex exec --json` against `chat-template serve` on the demo models,
// over the Responses API (Codex speaks nothing else). The demo model's first answer calls Codex's shell tool with
// `ls`, which Codex really runs in the working folder; its second quotes the listing, which must name PROBE.
// Run by test/agents/codex.sh, which installs the pinned Codex and cuts the network off.
// Usage: node --import tsx test/agents/codex.ts CODEX_BINARY
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type ClientRun, runClient } from "./client";
import { PROBE, RUN_TIMEOUT_MS, runSuite, tail } from "./suite";

interface CodexItem {
  type: string;
  command?: string;
  aggregated_output?: string;
  exit_code?: number | null;
  text?: string;
  message?: string;
}

interface CodexRun extends ClientRun {
  items: CodexItem[];
}

async function codex(binary: string, url: string, home: string, workdir: string): Promise<CodexRun> {
  const provider = `{name="chat-template-studio",base_url="${url}/v1",wire_api="responses",env_key="CTS_API_KEY"}`;
  const args = [
    "exec",
    "--json",
    "--skip-git-repo-check",
    // the test's scratch folder is the workspace: nothing to protect, and no sandbox to set up in a namespace
    "--dangerously-bypass-approvals-and-sandbox",
    "-m",
    "demo-random",
    "-c",
    "model_provider=cts",
    "-c",
    `model_providers.cts=${provider}`,
    "Which files are here?",
  ];
  const codexHome = join(home, ".codex");
  mkdirSync(codexHome); // Codex refuses a CODEX_HOME that does not exist
  const env = { PATH: process.env.PATH ?? "", HOME: home, CODEX_HOME: codexHome, CTS_API_KEY: "dummy" };
  const run = await runClient(binary, args, { cwd: workdir, env, timeoutMs: RUN_TIMEOUT_MS });
  const items = run.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { type: string; item?: CodexItem })
    .filter((e) => e.type === "item.completed" && e.item)
    .map((e) => e.item!);
  return { ...run, items };
}

const lastMessage = (run: CodexRun) => run.items.filter((i) => i.type === "agent_message").at(-1)?.text ?? "";

/** What is wrong with the run, or null: exit 0, `ls` ran and listed PROBE, the final message quotes it. */
function check(run: CodexRun): string | null {
  if (run.exitCode !== 0) return `exit ${run.exitCode}: ${tail(run)}`;
  const command = run.items.find((i) => i.type === "command_execution");
  if (!command?.aggregated_output?.includes(PROBE)) return `no command listed ${PROBE}: ${JSON.stringify(command)}`;
  if (!lastMessage(run).includes(PROBE)) return `the final message does not quote ${PROBE}`;
  return null;
}

const binary = process.argv[2];
if (!binary) throw new Error("usage: codex.ts CODEX_BINARY");
runSuite<CodexRun>("codex", "/v1/responses", [
  {
    context: 65536,
    expect: "runs ls and quotes it",
    run: (url, home, workdir) => codex(binary, url, home, workdir),
    check,
    answer: lastMessage,
  },
]);
