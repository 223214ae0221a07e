// Installs what the e2e run needs and the project does not carry: Node 24 and code-server (a cache
// outside the repo, minutes the first time, reused afterwards), Debian's chromium and the Kerberos
// headers code-server's native modules compile against.
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

// code-server 4.139.1 bundles VS Code 1.139.1 and refuses any Node but 24.
export const CODE_SERVER_VERSION = "4.139.1";
export const NODE_VERSION = "24.21.0";
export const CHROMIUM = "/usr/bin/chromium";

export interface Tools {
  node: string;
  codeServerEntry: string;
  chromium: string;
}

export function cacheDir(): string {
  if (process.env.CHAT_TEMPLATE_E2E_CACHE) return process.env.CHAT_TEMPLATE_E2E_CACHE;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "chat-template-studio", "e2e");
}

export function ensureTools(log: (line: string) => void): Tools {
  const cache = cacheDir();
  const codeServerDir = join(cache, `code-server-${CODE_SERVER_VERSION}`);
  // One apt-get run for both; the Kerberos headers only matter while code-server's native modules compile.
  const needsBuild = !isCached(codeServerDir, CODE_SERVER_VERSION);
  ensureDebianPackages({ chromium: CHROMIUM, ...(needsBuild ? { "libkrb5-dev": "/usr/include/krb5.h" } : {}) }, log);
  const node = ensureNode(join(cache, `node-${NODE_VERSION}`), log);
  const codeServerEntry = ensureCodeServer(codeServerDir, node, log);
  return { node: node.bin, codeServerEntry, chromium: CHROMIUM };
}

interface NodeInstall {
  bin: string;
  // A Node distribution folder (bin/, include/node/): node-gyp takes headers from here instead of downloading them.
  dir: string;
}

function ensureNode(dir: string, log: (line: string) => void): NodeInstall {
  // The npm package `node` puts the official build for this platform in node-<platform>-<arch>, headers included.
  const dist = join(dir, "node_modules", "node", "node_modules", `node-${process.platform}-${process.arch}`);
  const install = { bin: join(dist, "bin", "node"), dir: dist };
  cached(dir, NODE_VERSION, log, `Node ${NODE_VERSION}`, () => {
    npmInstall(dir, `node@${NODE_VERSION}`, { path: process.env.PATH ?? "", allowScripts: ["node"] });
    const version = run(install.bin, ["--version"]).trim();
    if (version !== `v${NODE_VERSION}`) throw new Error(`${install.bin} reports ${version}, expected v${NODE_VERSION}`);
    if (!existsSync(join(dist, "include", "node", "node_api.h"))) throw new Error(`no Node headers under ${dist}/include`);
  });
  return install;
}

function ensureCodeServer(dir: string, node: NodeInstall, log: (line: string) => void): string {
  const entry = join(dir, "node_modules", "code-server", "out", "node", "entry.js");
  cached(dir, CODE_SERVER_VERSION, log, `code-server ${CODE_SERVER_VERSION}`, () => {
    // npm must run on Node 24 (the postinstall checks npm's user agent) and node-gyp must find its headers offline.
    const path = `${join(node.dir, "bin")}:${process.env.PATH ?? ""}`;
    npmInstall(dir, `code-server@${CODE_SERVER_VERSION}`, { path, nodedir: node.dir, allowScripts: ["code-server", "argon2"] });
    // An explicit (empty) config, or code-server writes one with a generated password into ~/.config.
    const version = run(node.bin, [entry, "--config", "/dev/null", "--version"]);
    if (!new RegExp(`^${CODE_SERVER_VERSION} \\S+ with Code `, "m").test(version)) throw new Error(`code-server reports ${version.trim()}`);
  });
  return entry;
}

// Runs `install` unless `dir` holds a marker from a completed install of `version`; a half-done install
// (interrupted, failed) has no marker and is started again from scratch.
function cached(dir: string, version: string, log: (line: string) => void, what: string, install: () => void): void {
  if (isCached(dir, version)) return;
  log(`installing ${what} into ${dir} (once; later runs reuse it)`);
  const started = Date.now();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  install();
  writeFileSync(join(dir, MARKER), version);
  log(`installed ${what} in ${Math.round((Date.now() - started) / 1000)} s`);
}

const MARKER = ".installed";

function isCached(dir: string, version: string): boolean {
  const marker = join(dir, MARKER);
  return existsSync(marker) && readFileSync(marker, "utf8") === version;
}

interface NpmOptions {
  path: string;
  nodedir?: string;
  // Packages whose install scripts must run (npm is moving to blocking unlisted ones).
  allowScripts: string[];
}

function npmInstall(dir: string, spec: string, { path, nodedir, allowScripts }: NpmOptions): void {
  const manifest = { private: true, allowScripts: Object.fromEntries(allowScripts.map((name) => [name, true])) };
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  // Under `npm run`, npm's environment describes the project and its Node 20: the user agent would fail
  // code-server's Node version check and the local prefix would point the install at the project.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^npm_(config_user_agent|config_local_prefix|config_nodedir|package_|lifecycle_)/i.test(k),
    ),
  );
  if (nodedir) env.npm_config_nodedir = nodedir;
  run("npm", ["install", "--prefix", dir, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", spec], {
    cwd: dir,
    env: { ...env, PATH: path },
    stdio: ["ignore", "inherit", "inherit"],
  });
}

// `packages` maps a Debian package to a file it installs; only packages whose file is missing are installed.
function ensureDebianPackages(packages: Record<string, string>, log: (line: string) => void): void {
  const missing = Object.keys(packages).filter((name) => !existsSync(packages[name]!));
  if (missing.length === 0) return;
  log(`installing Debian packages: ${missing.join(" ")}`);
  const [cmd, ...prefix] = process.getuid?.() === 0 ? ["env"] : ["sudo", "env"];
  const apt = (args: string[]) =>
    run(cmd!, [...prefix, "DEBIAN_FRONTEND=noninteractive", "apt-get", ...args], { stdio: ["ignore", "ignore", "inherit"] });
  apt(["update", "-qq"]);
  apt(["install", "-y", "-qq", ...missing]);
  const still = missing.filter((name) => !existsSync(packages[name]!));
  if (still.length) throw new Error(`apt-get install did not provide ${still.map((n) => packages[n]).join(", ")}`);
}

function run(cmd: string, args: string[], options: SpawnSyncOptions = {}): string {
  const r = spawnSync(cmd, args, { encoding: "utf8", ...options });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited with ${r.status ?? r.signal}\n${r.stderr ?? ""}`);
  return String(r.stdout ?? "");
}
