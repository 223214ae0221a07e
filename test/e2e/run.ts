// `npm run test:e2e [PATTERN]`: installs what is missing (see driver/tools.ts), builds the extension and the
// suite, starts code-server, runs the suite inside its extension host from headless chromium, and keeps
// screenshots and logs in test-output/e2e/. PATTERN narrows the tests to those whose title matches it.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startChannel, type SuiteResult } from "./driver/channel";
import { startCodeServer } from "./driver/codeServer";
import { extensionHostErrors, saveLogs } from "./driver/logs";
import { ensureTools, type Tools } from "./driver/tools";
import { launchBrowser, runExtensionTests, workbenchUrl, type ExitReport } from "./driver/workbench";

const ROOT = join(__dirname, "..", "..");
const ARTIFACTS = join(ROOT, "test-output", "e2e");
const LOGS = join(ARTIFACTS, "logs");
// Far above a normal run (seconds), far below CI's 90 minutes.
const SUITE_TIMEOUT_MS = 10 * 60_000;

const log = (line: string) => console.log(`[e2e] ${line}`);
const seconds = (since: number) => `${Math.round((Date.now() - since) / 100) / 10} s`;

async function main(): Promise<number> {
  const t0 = Date.now();
  const tools = ensureTools(log);
  for (const [cmd, ...args] of [["npm", "run", "build"], [process.execPath, "test/e2e/bundle.mjs"]]) {
    if (spawnSync(cmd!, args, { cwd: ROOT, stdio: "inherit" }).status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed`);
  }
  log(`tools and build ready in ${seconds(t0)}`);

  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(LOGS, { recursive: true });
  const outcome = await runSuite(tools, process.argv[2]);
  // Read after code-server stopped, so that the extension host's last lines are in.
  const errors = extensionHostErrors(join(LOGS, "server"));
  for (const e of errors) log(`extension host log error: ${e}`);
  if (!outcome.result) log("the suite reported no result (see test-output/e2e/logs)");
  log(`artifacts in ${ARTIFACTS}; total ${seconds(t0)}`);

  const { passed = 0, failed = 1, pending = 0 } = outcome.result ?? {};
  // The plain closing line CI reads; errors in the extension host log count as one more failure.
  console.log(`e2e: ${passed} passed, ${failed + (errors.length ? 1 : 0)} failed, ${pending} skipped`);
  return outcome.exitCode === 0 && outcome.result && errors.length === 0 ? 0 : 1;
}

async function runSuite(tools: Tools, grep: string | undefined): Promise<{ exitCode: number; result?: SuiteResult }> {
  const runDir = mkdtempSync(join(tmpdir(), "chat-template-e2e-"));
  // Undone in reverse order whatever happens, so that no code-server or chromium outlives the run.
  const cleanup: (() => unknown)[] = [() => rmSync(runDir, { recursive: true, force: true })];
  try {
    // A copy, so that tests which edit or save files leave the fixtures as they are.
    const workspace = join(runDir, "workspace");
    cpSync(join(ROOT, "test", "e2e", "fixtures", "workspace"), workspace, { recursive: true });

    const server = await startCodeServer(tools.node, tools.codeServerEntry, join(runDir, "code-server"));
    let report: ExitReport | undefined;
    cleanup.push(() => {
      saveLogs(server.logsDir, report?.logs ?? [], LOGS);
      cpSync(join(runDir, "code-server", "code-server.log"), join(LOGS, "code-server.log"));
    });
    cleanup.push(() => server.stop());
    const { context, page } = await launchBrowser(tools.chromium, join(runDir, "chromium"));
    cleanup.push(() => context.close());
    const channel = await startChannel(page, ARTIFACTS, (line) => console.log(line));
    cleanup.push(() => channel.close());

    const env: Record<string, string> = { CHAT_TEMPLATE_E2E_DRIVER: channel.url, ...(grep ? { CHAT_TEMPLATE_E2E_GREP: grep } : {}) };
    const extensionTestsPath = join(ROOT, "out", "e2e", "index.js");
    const url = workbenchUrl(server.url, { folder: workspace, extensionDevelopmentPath: ROOT, extensionTestsPath, env });
    const t1 = Date.now();
    report = await runExtensionTests(page, url, SUITE_TIMEOUT_MS, log).catch(async (err: Error) => {
      await page.screenshot({ path: join(ARTIFACTS, "failure.png") }).catch(() => undefined);
      throw err;
    });
    log(`suite ran in ${seconds(t1)}`);
    return { exitCode: report.code, result: channel.result() };
  } finally {
    for (const undo of cleanup.reverse()) await undo();
  }
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`[e2e] ${err.stack ?? err.message}`);
    process.exit(1);
  },
);
