// Bundles the in-extension-host suite (test/e2e/suite) into out/e2e/ for the extension host: index.js (the
// mocha runner VS Code loads as extensionTestsPath) and one *.test.js per suite file. Plain JavaScript so
// that both the code-server driver and .vscode-test.mjs (@vscode/test-electron) can import it.
import * as esbuild from "esbuild";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const root = new URL("../..", import.meta.url).pathname;
export const SUITE_OUT = join(root, "out", "e2e");

export async function bundleSuite() {
  const src = join(root, "test", "e2e", "suite");
  const entries = readdirSync(src).filter((f) => f === "index.ts" || f.endsWith(".test.ts"));
  rmSync(SUITE_OUT, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: entries.map((f) => join(src, f)),
    outdir: SUITE_OUT,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    sourcemap: true,
    logLevel: "warning",
    // vscode is the extension host's; mocha is loaded from node_modules so that index.js and the test files
    // share the one instance whose suite()/test() register into the running Mocha.
    external: ["vscode", "mocha"],
  });
  return SUITE_OUT;
}

if (import.meta.url === `file://${process.argv[1]}`) await bundleSuite();
