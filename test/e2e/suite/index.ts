// extensionTestsPath: VS Code's extension host calls run() and exits with its outcome. Runs every
// *.test.js bundled next to this file.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import Mocha from "mocha";
import { hasBrowser, print, reportResult, screenshot } from "./helpers/driver";

export async function run(): Promise<void> {
  (Mocha.reporters.Base as unknown as { consoleLog: typeof print }).consoleLog = print;
  const mocha = new Mocha({ ui: "tdd", color: false, timeout: 60_000, rootHooks: { afterEach: screenshotFailure } });
  const only = process.env.CHAT_TEMPLATE_E2E_GREP;
  if (only) mocha.grep(only);
  for (const f of readdirSync(__dirname)
    .filter((n) => n.endsWith(".test.js"))
    .sort())
    mocha.addFile(join(__dirname, f));
  const stats = await new Promise<Mocha.Stats>((resolve) => {
    const runner = mocha.run(() => resolve(runner.stats!));
  });
  await reportResult({ passed: stats.passes, failed: stats.failures, pending: stats.pending });
  if (stats.failures > 0) throw new Error(`${stats.failures} of ${stats.tests} e2e tests failed`);
}

// What the window showed when a test failed: test-output/e2e/failed-<title>.png.
async function screenshotFailure(this: Mocha.Context): Promise<void> {
  const test = this.currentTest;
  if (!hasBrowser || test?.state !== "failed") return;
  await screenshot(
    `failed-${test
      .fullTitle()
      .replace(/[^\w.-]+/g, "-")
      .slice(0, 80)}`,
  );
}
