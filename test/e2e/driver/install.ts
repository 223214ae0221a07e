// Installs a .vsix into code-server's fresh extensions folder the way users do (`--install-extension FILE`)
// and makes the installed copy read-only, as a system-wide or packaged install can be: the extension must
// keep everything it writes (demo models, caches, the CUDA build, the served template) in its global storage.
// Permissions do not stop root (CI may run as root), so the driver also compares the folder after the run
// with what was installed.
import { spawnSync } from "node:child_process";
import { chmodSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { codeServerDirs } from "./codeServer";

const EXTENSION_ID = "chat-template-studio.chat-template-studio";

export interface InstalledExtension {
  folder: string;
  /** Files added, removed or rewritten in the installed folder since the install. */
  changes(): string[];
  /** Gives write access back, so that the run's folder can be removed. */
  release(): void;
}

function setWritable(path: string, writable: boolean): void {
  const s = statSync(path);
  if (s.isDirectory()) {
    // a folder is opened for writing before its contents and closed after them
    if (writable) chmodSync(path, s.mode | 0o200);
    for (const name of readdirSync(path)) setWritable(join(path, name), writable);
    if (!writable) chmodSync(path, s.mode & ~0o222);
  } else if (!s.isSymbolicLink()) {
    chmodSync(path, writable ? s.mode | 0o200 : s.mode & ~0o222);
  }
}

/** Each file under `folder` with its size and modification time. */
function listing(folder: string, rel = ""): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of readdirSync(join(folder, rel))) {
    const path = join(rel, name);
    const s = statSync(join(folder, path));
    if (s.isDirectory()) for (const [k, v] of listing(folder, path)) found.set(k, v);
    else found.set(path, `${s.size}:${s.mtimeMs}`);
  }
  return found;
}

export function installExtension(node: string, codeServerEntry: string, dataDir: string, vsix: string): InstalledExtension {
  const { userDataDir, extensionsDir } = codeServerDirs(dataDir);
  const r = spawnSync(
    node,
    [codeServerEntry, "--user-data-dir", userDataDir, "--extensions-dir", extensionsDir, "--install-extension", vsix],
    {
      encoding: "utf8",
      env: { ...process.env, EXTENSIONS_GALLERY: "{}" },
      timeout: 120_000,
    },
  );
  if (r.status !== 0)
    throw new Error(`code-server --install-extension ${vsix} failed (${r.signal ?? `exit ${r.status}`}):\n${r.stdout}${r.stderr}`);
  const name = readdirSync(extensionsDir).find((d) => d.startsWith(`${EXTENSION_ID}-`));
  if (!name) throw new Error(`code-server installed ${vsix} but ${extensionsDir} holds no ${EXTENSION_ID}-*:\n${r.stdout}`);
  const folder = join(extensionsDir, name);
  setWritable(folder, false);
  const installed = listing(folder);
  return {
    folder,
    changes() {
      const now = listing(folder);
      const added = [...now.keys()].filter((f) => !installed.has(f)).map((f) => `added ${f}`);
      const gone = [...installed.keys()].filter((f) => !now.has(f)).map((f) => `removed ${f}`);
      const changed = [...now.keys()].filter((f) => installed.has(f) && installed.get(f) !== now.get(f)).map((f) => `rewrote ${f}`);
      return [...added, ...gone, ...changed];
    },
    release: () => setWritable(folder, true),
  };
}
