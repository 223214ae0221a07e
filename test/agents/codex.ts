// Codex CLI end to end (issue 26): the real `codex exec --json` against `chat-template serve` on the demo models,
// over the Responses API (Codex speaks nothing else). The demo model drives the loop (native/endpoint/agentDemo.ts):
// its first answer calls Codex's shell tool with `ls`, which Codex really runs in the working folder, and its second
// quotes the listing, in which the file this test put there must appear. Run by test/agents/codex.sh, which installs
// the pinned Codex and cuts the network off.
// Usage: node --import tsx test/agents/codex.ts CODEX_BINARY
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEndpoint } from "../helpers/endpoint";
import { describeCounts, requestCounts } from "./requests";

// far above a run on two cores (a prefill of ~19k tokens, then one mostly cached), below CI's 90 minutes
const RUN_TIMEOUT_MS = 25 * 60_000;
const PROBE = "cts-agent-probe.txt";
const CONTEXT = 65536;

interface CodexItem {
  type: string;
  command?: string;
  aggregated_output?: string;
  exit_code?: number | null;
  text?: string;
  message?: string;
}

interface CodexRun {
  exitCode: number | null;
  items: CodexItem[];
  stdout: string;
  stderr: string;
}

function codex(binary: string, url: string, home: string, workdir: string): Promise<CodexRun> {
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
  // Codex refuses a CODEX_HOME that does not exist
  const codexHome = join(home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  const env = { PATH: process.env.PATH ?? "", HOME: home, CODEX_HOME: codexHome, CTS_API_KEY: "dummy" };
  const child = spawn(binary, args, { cwd: workdir, env, stdio: ["ignore", "pipe", "pipe"] });
  let [stdout, stderr] = ["", ""];
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), RUN_TIMEOUT_MS);
  return new Promise((resolve) =>
    child.once("exit", (exitCode) => {
      clearTimeout(timer);
      const items = stdout
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as { type: string; item?: CodexItem })
        .filter((e) => e.type === "item.completed" && e.item)
        .map((e) => e.item!);
      resolve({ exitCode, items, stdout, stderr });
    }),
  );
}

/** What is wrong with the run, or null: exit 0, `ls` ran and listed the probe, the final message quotes it. */
function problem(run: CodexRun): string | null {
  if (run.exitCode !== 0) return `exit ${run.exitCode}: ${(run.stderr || run.stdout).slice(-600)}`;
  const command = run.items.find((i) => i.type === "command_execution");
  if (!command?.aggregated_output?.includes(PROBE)) return `no command listed ${PROBE}: ${JSON.stringify(command)}`;
  const answer = run.items.filter((i) => i.type === "agent_message").at(-1);
  if (!answer?.text?.includes(PROBE)) return `the final message does not quote ${PROBE}: ${JSON.stringify(answer)}`;
  return null;
}

async function main(): Promise<number> {
  const binary = process.argv[2];
  if (!binary) throw new Error("usage: codex.ts CODEX_BINARY");
  const scratch = mkdtempSync(join(tmpdir(), "cts-codex-"));
  try {
    const started = Date.now();
    const workdir = join(scratch, "work");
    mkdirSync(workdir);
    writeFileSync(join(workdir, PROBE), "");
    const endpoint = await startEndpoint(["--context", String(CONTEXT)], { viaCli: true });
    let run: CodexRun;
    let requests: string;
    try {
      run = await codex(binary, endpoint.url, scratch, workdir);
      requests = describeCounts(await requestCounts(endpoint.url, "/v1/responses"));
    } finally {
      await endpoint.stop();
    }
    const failure = problem(run);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `[codex] --context ${CONTEXT} runs ls and quotes it: ${failure ? "FAIL" : "ok"} in ${seconds} s (exit ${run.exitCode}, /v1/responses ${requests})`,
    );
    for (const line of endpoint.stderr.split("\n").filter((l) => / \/v1\/responses /.test(l))) console.log(`[codex]   endpoint: ${line}`);
    if (failure) console.log(`[codex]   ${failure}`);
    return failure ? 1 : 0;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`[codex] ${e instanceof Error ? e.stack : String(e)}`);
    process.exit(1);
  },
);
