// The e2e suite under @vscode/test-electron (desktop VS Code, downloaded by `npx vscode-test`), for machines
// that can reach the VS Code download; this project's CI runs it in code-server instead (npm run test:e2e).
// Needs `npm run build` first; the suite is bundled here. Browser-level tests skip: no driver answers them.
import { defineConfig } from "@vscode/test-cli";
import { bundleSuite } from "./test/e2e/bundle.mjs";

const out = await bundleSuite();

export default defineConfig({
  files: `${out}/*.test.js`,
  version: "1.139.1",
  workspaceFolder: "test/e2e/fixtures/workspace",
  mocha: { ui: "tdd", timeout: 60_000 },
});
