// Opens the web workbench in headless chromium with the extension under development and its tests, the
// way VS Code's own browser integration tests do, and waits for the extension host to report the result.
import { chromium, type BrowserContext, type Page } from "playwright-core";

// The machine's network is closed: these keep chromium from reaching out (and logging refusals) at start.
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface ExtensionTests {
  folder: string;
  extensionDevelopmentPath: string;
  // A module exporting `run(): Promise<void>`, loaded by the extension host.
  extensionTestsPath: string;
  // Environment variables of the extension host the tests run in.
  env: Record<string, string>;
}

export interface ExitReport {
  code: number;
  // The workbench's own logs (window, renderer), handed over by the smoke-test driver hook.
  logs: { relativePath: string; contents: string }[];
}

export async function launchBrowser(executablePath: string, profileDir: string): Promise<{ context: BrowserContext; page: Page }> {
  // A persistent context so that the profile is a fresh folder of ours, not one chromium picks.
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1400, height: 900 },
  });
  return { context, page: context.pages()[0] ?? (await context.newPage()) };
}

// The workbench URL: `folder` to open, and `payload` with the development options a built workbench
// honours only when code-server runs with enable-smoke-test-driver.
export function workbenchUrl(server: URL, tests: ExtensionTests): string {
  const remote = (path: string) => `vscode-remote://${server.host}${path}`;
  const payload = [
    ["extensionDevelopmentPath", remote(tests.extensionDevelopmentPath)],
    ["extensionTestsPath", remote(tests.extensionTestsPath)],
    ["extensionEnvironment", JSON.stringify(tests.env)],
    ["skipWelcome", "true"],
    ["skipReleaseNotes", "true"],
  ];
  const url = new URL(server);
  url.searchParams.set("folder", tests.folder);
  url.searchParams.set("payload", JSON.stringify(payload));
  return url.toString();
}

export async function runExtensionTests(page: Page, url: string, timeoutMs: number, log: (line: string) => void): Promise<ExitReport> {
  let exited!: (report: ExitReport) => void;
  const exit = new Promise<ExitReport>((resolve) => (exited = resolve));
  // The workbench calls this when the test extension host ends, with run()'s outcome as the exit code.
  await page.exposeFunction("codeAutomationExit", (code: number, logs: ExitReport["logs"] = []) => exited({ code, logs }));
  page.on("pageerror", (err) => log(`page error: ${err.message}`));
  await page.goto(url);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the extension tests did not finish in ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    return await Promise.race([exit, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
