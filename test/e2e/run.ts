// `npm run test:e2e [-- --package linux-x64|universal] [--screenshots] [PATTERN]`: installs what is missing (see driver/tools.ts),
// builds the .vsix packages users install and the suite, and for each package (default: both) installs it into
// a fresh code-server with `--install-extension`, runs the suite inside its extension host from headless
// chromium, and keeps screenshots and logs in test-output/e2e/<package>/. The linux-x64 package is the one
// with the native engine; the universal one (what macOS, Windows and arm64 get) has none, and the suite
// checks there that everything but the engine works and the engine's place says so.
// PATTERN narrows the tests to those whose title matches it. --screenshots copies the screenshots the README and
// the walkthrough show (SHOWN) into media/screenshots/, so that they are what the suite saw. `--setup-only` installs
// what is missing and stops, saying how long it took (a CI job can fill its cache with it).
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { vsixName } from "../../packaging/vsix";
import type { Target } from "../../packaging/contents";
import { startChannel, type SuiteResult } from "./driver/channel";
import { codeServerDirs, startCodeServer } from "./driver/codeServer";
import { installExtension } from "./driver/install";
import { extensionHostErrors, saveLogs } from "./driver/logs";
import { cacheDir, ensureTools, type Tools } from "./driver/tools";
import { launchBrowser, runExtensionTests, workbenchUrl, type ExitReport } from "./driver/workbench";

const ROOT = join(__dirname, "..", "..");
const OUTPUT = join(ROOT, "test-output", "e2e");
// Far above a normal run (seconds), far below CI's 90 minutes.
const SUITE_TIMEOUT_MS = 10 * 60_000;
const PACKAGES: Target[] = ["linux-x64", "universal"];
const SCREENSHOTS = join(ROOT, "media", "screenshots");
// package → the screenshots of its run that the README and the walkthrough show
const SHOWN: Record<Target, string[]> = {
  "linux-x64": ["problems-view", "quick-fix", "preview", "endpoint-ready", "test-against-model", "walkthrough", "debugger"],
  universal: ["endpoint-unavailable"],
};

const log = (line: string) => console.log(`[e2e] ${line}`);
const seconds = (since: number) => `${Math.round((Date.now() - since) / 100) / 10} s`;

function parseArgs(argv: string[]): { packages: Target[]; grep: string | undefined; screenshots: boolean; setupOnly: boolean } {
  const screenshots = argv.includes("--screenshots");
  const setupOnly = argv.includes("--setup-only");
  const args = argv.filter((a) => a !== "--screenshots" && a !== "--setup-only");
  const at = args.indexOf("--package");
  if (at < 0) return { packages: PACKAGES, grep: args[0], screenshots, setupOnly };
  const target = args[at + 1] as Target;
  if (!PACKAGES.includes(target)) throw new Error(`--package takes ${PACKAGES.join(" or ")}, not ${target}`);
  const rest = args.filter((_, i) => i !== at && i !== at + 1);
  return { packages: [target], grep: rest[0], screenshots, setupOnly };
}

function run(cmd: string, args: string[]): void {
  if (spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit" }).status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed`);
}

async function main(): Promise<number> {
  const t0 = Date.now();
  const { packages, grep, screenshots, setupOnly } = parseArgs(process.argv.slice(2));
  const tools = ensureTools(log);
  if (setupOnly) {
    log(`tools ready in ${seconds(t0)} (${cacheDir()})`);
    return 0;
  }
  const vsixDir = mkdtempSync(join(tmpdir(), "chat-template-e2e-vsix-"));
  try {
    run("npm", ["run", "build"]);
    for (const target of packages)
      run(process.execPath, ["--import", "tsx", "packaging/vsix.ts", "--out", vsixDir, ...(target === "universal" ? ["--universal"] : [])]);
    run(process.execPath, ["test/e2e/bundle.mjs"]);
    log(`tools, packages and suite ready in ${seconds(t0)}`);

    rmSync(OUTPUT, { recursive: true, force: true });
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    const totals = { passed: 0, failed: 0, pending: 0 };
    for (const target of packages) {
      const t1 = Date.now();
      const artifacts = join(OUTPUT, target);
      const logs = join(artifacts, "logs");
      mkdirSync(logs, { recursive: true });
      const outcome = await runSuite(tools, join(vsixDir, vsixName(version, target)), target, artifacts, grep);
      // Read after code-server stopped, so that the extension host's last lines are in.
      const errors = extensionHostErrors(join(logs, "server"));
      for (const e of errors) log(`${target}: extension host log error: ${e}`);
      if (!outcome.result) log(`${target}: the suite reported no result (see ${logs})`);
      const { passed = 0, failed = 1, pending = 0 } = outcome.result ?? {};
      for (const w of outcome.written) log(`${target}: the extension wrote into its installed folder: ${w}`);
      // errors in the extension host log and writes into the installed folder count as one more failure each,
      // and so does a run that failed with no failed test
      const broken = failed + (errors.length ? 1 : 0) + (outcome.written.length ? 1 : 0) + (outcome.exitCode !== 0 && failed === 0 ? 1 : 0);
      log(`${target}: ${passed} passed, ${broken} failed, ${pending} skipped in ${seconds(t1)} (install, start and suite)`);
      if (screenshots && broken === 0) {
        mkdirSync(SCREENSHOTS, { recursive: true });
        for (const name of SHOWN[target]) cpSync(join(artifacts, `${name}.png`), join(SCREENSHOTS, `${name}.png`));
        log(`${target}: ${SHOWN[target].join(", ")} copied into ${SCREENSHOTS}`);
      }
      totals.passed += passed;
      totals.failed += broken;
      totals.pending += pending;
    }
    log(`artifacts in ${OUTPUT}; total ${seconds(t0)}`);
    // The plain closing line CI reads.
    console.log(`e2e: ${totals.passed} passed, ${totals.failed} failed, ${totals.pending} skipped`);
    return totals.failed === 0 ? 0 : 1;
  } finally {
    rmSync(vsixDir, { recursive: true, force: true });
  }
}

async function runSuite(
  tools: Tools,
  vsix: string,
  target: Target,
  artifacts: string,
  grep: string | undefined,
): Promise<{ exitCode: number; result?: SuiteResult; written: string[] }> {
  const runDir = mkdtempSync(join(tmpdir(), "chat-template-e2e-"));
  // Undone in reverse order whatever happens, so that no code-server or chromium outlives the run.
  const cleanup: (() => unknown)[] = [() => rmSync(runDir, { recursive: true, force: true })];
  const logs = join(artifacts, "logs");
  let written: string[] = [];
  try {
    // A copy, so that tests which edit or save files leave the fixtures as they are.
    const workspace = join(runDir, "workspace");
    cpSync(join(ROOT, "test", "e2e", "fixtures", "workspace"), workspace, { recursive: true });

    const dataDir = join(runDir, "code-server");
    const installed = installExtension(tools.node, tools.codeServerEntry, dataDir, vsix);
    cleanup.push(() => installed.release());
    // after code-server stopped: nothing the extension ran may have written into its own folder
    cleanup.push(() => (written = installed.changes()));
    log(`${target}: installed ${vsix} as ${installed.folder} (read-only)`);
    const server = await startCodeServer(tools.node, tools.codeServerEntry, dataDir);
    let report: ExitReport | undefined;
    cleanup.push(() => {
      saveLogs(server.logsDir, report?.logs ?? [], logs);
      cpSync(join(dataDir, "code-server.log"), join(logs, "code-server.log"));
    });
    cleanup.push(() => server.stop());
    const { context, page } = await launchBrowser(tools.chromium, join(runDir, "chromium"));
    cleanup.push(() => context.close());
    const channel = await startChannel(page, artifacts, (line) => console.log(line));
    cleanup.push(() => channel.close());

    const env: Record<string, string> = {
      CHAT_TEMPLATE_E2E_DRIVER: channel.url,
      // the corpus and its expectations are the repo's, not the package's
      CHAT_TEMPLATE_E2E_REPO: ROOT,
      CHAT_TEMPLATE_E2E_PACKAGE: target,
      CHAT_TEMPLATE_E2E_USER_DATA: codeServerDirs(dataDir).userDataDir,
      ...(grep ? { CHAT_TEMPLATE_E2E_GREP: grep } : {}),
    };
    const extensionTestsPath = join(ROOT, "out", "e2e", "index.js");
    // VS Code runs extension tests only beside an extension under development: an empty one, so that the
    // extension under test is the installed copy
    const extensionDevelopmentPath = join(ROOT, "test", "e2e", "runner");
    const url = workbenchUrl(server.url, { folder: workspace, extensionDevelopmentPath, extensionTestsPath, env });
    const t1 = Date.now();
    report = await runExtensionTests(page, url, SUITE_TIMEOUT_MS, log).catch(async (err: Error) => {
      await page.screenshot({ path: join(artifacts, "failure.png") }).catch(() => undefined);
      throw err;
    });
    log(`${target}: suite ran in ${seconds(t1)}`);
    const result = channel.result();
    for (const undo of cleanup.splice(0).reverse()) await undo();
    return { exitCode: report.code, result, written };
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
