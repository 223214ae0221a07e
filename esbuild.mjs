// Bundles the extension host client, the language server, the CLI and the endpoint process into dist/.
// Run by `npm ci` (prepare) so that `npx chat-template …` works right after install.
import * as esbuild from "esbuild";
import { chmodSync } from "node:fs";

const watch = process.argv.includes("--watch");
const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: true,
  logLevel: "warning",
  // node-llama-cpp and the native addon load shared libraries from their own folders at run time.
  external: ["vscode", "node-llama-cpp", "@node-llama-cpp/*", "*.node"],
  // jsonc-parser's "main" is a UMD build whose dynamic requires esbuild cannot follow; its ESM build bundles.
  alias: { "jsonc-parser": "jsonc-parser/lib/esm/main.js" },
};

const entries = [
  { entryPoints: ["client/src/extension.ts"], outfile: "dist/client.js" },
  { entryPoints: ["server/src/lsp/main.ts"], outfile: "dist/server.js" },
  // the language server's analysis process (server/src/lsp/analysisWorker.ts starts it)
  { entryPoints: ["server/src/lsp/analysisProcess.ts"], outfile: "dist/analysisWorker.js" },
  // the thread that reports where a helper process's render is: the analysis process's, the dialect columns' and the test cases' (server/src/progressPipe)
  { entryPoints: ["server/src/progressPipe/progressThread.ts"], outfile: "dist/renderProgress.js" },
  { entryPoints: ["cli/main.ts"], outfile: "dist/cli.js", banner: { js: "#!/usr/bin/env node" } },
  { entryPoints: ["native/endpoint/main.ts"], outfile: "dist/endpoint.js" },
  // the render a `chat-template debug-adapter` debugs runs in this thread (server/src/debugger/renderThread.ts)
  { entryPoints: ["server/src/debugger/worker.ts"], outfile: "dist/debugWorker.js" },
  // the template guard's process (server/src/guard/guardProcess.ts), started by the endpoint
  { entryPoints: ["server/src/guard/worker.ts"], outfile: "dist/templateGuardWorker.js" },
  // the preview webview runs in a browser page: its script and stylesheet, no Node, no vscode
  {
    entryPoints: ["client/src/preview/webview/main.ts", "client/src/preview/webview/preview.css"],
    outdir: "dist/preview",
    platform: "browser",
    format: "iife",
    target: "chrome120",
  },
  { entryPoints: ["client/src/preview/engines/llamacppWorker.ts"], outfile: "dist/llamacppWorker.js" },
  // the preview's dialect columns render in these processes (client/src/preview/engines/dialectProcess.ts)
  { entryPoints: ["client/src/preview/engines/dialectWorker.ts"], outfile: "dist/dialectWorker.js" },
  // the Test Explorer's cases run in these (client/src/templateTests/caseProcess.ts)
  { entryPoints: ["client/src/templateTests/caseWorker.ts"], outfile: "dist/templateTestWorker.js" },
];

const contexts = await Promise.all(entries.map((e) => esbuild.context({ ...common, ...e })));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  chmodSync("dist/cli.js", 0o755);
}
