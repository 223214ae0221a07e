// opencode end to end (issue 26): the real `opencode run --format json` against `chat-template serve` on the demo
// models, configured as a user adds a local model: a custom provider on @ai-sdk/openai-compatible whose baseURL is
// the endpoint's /v1 (OpenAI's chat completions). The demo model's first answer calls opencode's bash tool with
// `ls`, which opencode really runs in the working folder; its second quotes the result, which must name PROBE.
// Run by test/agents/opencode.sh, which installs the pinned opencode and cuts the network off.
// Usage: node --import tsx test/agents/opencode.ts OPENCODE_BINARY
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ClientRun, runClient } from "./client";
import { PROBE, RUN_TIMEOUT_MS, runSuite, tail } from "./suite";

const CONTEXT = 65536;

interface OpencodePart {
  type: string;
  text?: string;
  tool?: string;
  state?: { status?: string; output?: string; input?: unknown };
}

interface OpencodeRun extends ClientRun {
  parts: OpencodePart[];
}

/** The user's config: one provider, the endpoint, and its model as the default. */
function writeConfig(home: string, url: string): void {
  const dir = join(home, ".config", "opencode");
  mkdirSync(dir, { recursive: true });
  const config = {
    $schema: "https://opencode.ai/config.json",
    provider: {
      cts: {
        npm: "@ai-sdk/openai-compatible",
        name: "Chat Template Studio",
        options: { baseURL: `${url}/v1`, apiKey: "dummy" },
        models: { "demo-random": { name: "demo-random", tool_call: true, limit: { context: CONTEXT, output: 4096 } } },
      },
    },
    model: "cts/demo-random",
    autoupdate: false,
    share: "disabled",
    permission: { bash: "allow" },
  };
  writeFileSync(join(dir, "opencode.json"), JSON.stringify(config, null, 2));
}

async function opencode(binary: string, url: string, home: string, workdir: string): Promise<OpencodeRun> {
  writeConfig(home, url);
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
  };
  const run = await runClient(binary, ["run", "--format", "json", "Which files are here?"], {
    cwd: workdir,
    env,
    timeoutMs: RUN_TIMEOUT_MS,
  });
  const parts = run.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { part?: OpencodePart })
    .flatMap((e) => (e.part ? [e.part] : []));
  return { ...run, parts };
}

const lastText = (run: OpencodeRun) => run.parts.filter((p) => p.type === "text").at(-1)?.text ?? "";

function check(run: OpencodeRun): string | null {
  if (run.exitCode !== 0) return `exit ${run.exitCode}: ${tail(run)}`;
  const bash = run.parts.find((p) => p.type === "tool" && p.tool === "bash");
  if (!bash?.state?.output?.includes(PROBE)) return `no bash call listed ${PROBE}: ${JSON.stringify(bash)}`;
  if (!lastText(run).includes(PROBE)) return `the final text does not quote ${PROBE}: ${tail(run)}`;
  return null;
}

const binary = process.argv[2];
if (!binary) throw new Error("usage: opencode.ts OPENCODE_BINARY");
runSuite<OpencodeRun>("opencode", "/v1/chat/completions", [
  {
    context: CONTEXT,
    expect: "runs ls and quotes it",
    run: (url, home, workdir) => opencode(binary, url, home, workdir),
    check,
    answer: lastText,
  },
]);
