// Starts code-server (the VS Code server and web workbench) on a free loopback port with throwaway state.
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface CodeServer {
  url: URL;
  // VS Code's own logs (extension host, server); code-server's are in coder-logs under `dataDir`.
  logsDir: string;
  stop(): Promise<void>;
}

// The test window's user settings: no AI chat panel (it takes half the screenshots and its agent host burns
// CPU), nothing that reaches for the network, which is closed. The web workbench saves edits after a second
// by default; desktop VS Code does not, and a test that edits a document expects it to stay unsaved.
const SETTINGS = {
  "files.autoSave": "off",
  "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "workbench.startupEditor": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
};

/** Where a code-server started on `dataDir` keeps its user data and its extensions. */
export function codeServerDirs(dataDir: string): { userDataDir: string; extensionsDir: string } {
  return { userDataDir: join(dataDir, "user-data"), extensionsDir: join(dataDir, "extensions") };
}

export async function startCodeServer(node: string, entry: string, dataDir: string): Promise<CodeServer> {
  const { userDataDir, extensionsDir } = codeServerDirs(dataDir);
  mkdirSync(join(userDataDir, "User"), { recursive: true });
  writeFileSync(join(userDataDir, "User", "settings.json"), JSON.stringify(SETTINGS, null, 2));
  // An empty config file, or code-server writes one with a generated password into ~/.config.
  writeFileSync(join(dataDir, "config.yaml"), "");
  const args = [
    entry,
    "--auth",
    "none",
    "--bind-addr",
    "127.0.0.1:0",
    "--config",
    join(dataDir, "config.yaml"),
    "--user-data-dir",
    userDataDir,
    "--extensions-dir",
    extensionsDir,
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-workspace-trust",
    "--disable-getting-started-override",
    "--ignore-last-opened",
    // Without it a built workbench ignores the `payload` URL parameter (extensionDevelopmentPath, extensionTestsPath).
    "--vscode-option",
    "enable-smoke-test-driver",
  ];
  const env = {
    ...process.env,
    XDG_DATA_HOME: join(dataDir, "xdg-data"),
    XDG_CONFIG_HOME: join(dataDir, "xdg-config"),
    // No extension gallery: the network is closed; the extension under test is installed from its .vsix.
    EXTENSIONS_GALLERY: "{}",
  };
  const child = spawn(node, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const out = createWriteStream(join(dataDir, "code-server.log"));
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const url = await new Promise<URL>((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`code-server did not start in 60 s:\n${seen}`)), 60_000);
    child.stdout.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /HTTP server listening on (http:\/\/\S+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(new URL(m[1]!));
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`code-server exited with ${child.exitCode}:\n${seen}`));
    });
  });

  return {
    url,
    logsDir: join(userDataDir, "logs"),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      // A server stuck in shutdown must not hang the run.
      const kill = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(kill);
    },
  };
}
