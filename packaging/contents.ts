// What the .vsix holds: exactly the files the installed extension reads at run time, as rules over the
// checkout, so that a new file in a shipped folder (a template, a schema, a starter test) ships without
// an edit here, and nothing else does (tests, TypeScript sources, source maps, build intermediates); and, in the
// linux-x64 package, node-llama-cpp bundled at packaging time (nodeLlamaCpp.ts) instead of its dependency tree.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { NODE_LLAMA_CPP_FILES } from "./nodeLlamaCpp";

export type Target = "linux-x64" | "universal";

interface Rule {
  /** Folder (or file) relative to the root of the checkout. */
  base: string;
  /** Which files under base ship, tested against their path relative to base ("/"-separated). */
  match: RegExp;
  /** Only in the linux-x64 package: the native engine and llama.cpp's libraries exist for linux-x64 only. */
  native?: true;
}

const ANY = /.*/;

const RULES: Rule[] = [
  { base: "package.json", match: ANY },
  // the manifest's strings (%key% in package.json)
  { base: "package.nls.json", match: ANY },
  { base: "README.md", match: ANY },
  // the user documentation the README links to, so its links resolve inside the package
  { base: "docs", match: /^[^/]+\.md$/ },
  { base: "CHANGELOG.md", match: ANY },
  { base: "LICENSE", match: ANY },
  { base: "language-configuration.json", match: ANY },
  { base: "media", match: /\.(png|svg|md)$/ },
  { base: "syntaxes", match: /\.json$/ },
  // sample message sets, starter templates, their JSON schemas: whatever the folder holds
  { base: "templates", match: ANY },
  { base: "dist", match: /\.(js|css)$/ },
  { base: "native/build/cmake/bin", match: /^cts_(engine|loader)\.node$/, native: true },
  // node-llama-cpp's prebuilt llama.cpp: every CPU variant is loaded on the machine it fits
  { base: "node_modules/@node-llama-cpp/linux-x64", match: /^(package\.json|LICENSE|dist\/.*\.js|bins\/linux-x64\/[^/]+)$/, native: true },
];

function walk(root: string, rel: string): string[] {
  const p = join(root, rel);
  if (!existsSync(p)) return [];
  if (!statSync(p).isDirectory()) return [rel];
  return readdirSync(p).flatMap((name) => walk(root, join(rel, name)));
}

const posix = (p: string) => p.split(sep).join("/");

function pick(root: string, base: string, match: RegExp): string[] {
  return walk(root, base)
    .map(posix)
    .filter((f) => match.test(f === base ? f : f.slice(base.length + 1)));
}

/** The files of the package for target copied from the checkout as they are, relative to root, "/"-separated, sorted. */
export function checkoutFiles(root: string, target: Target): string[] {
  const rules = RULES.filter((r) => target === "linux-x64" || !r.native);
  return [...new Set(rules.flatMap((r) => pick(root, r.base, r.match)))].sort();
}

/** The files of the package for target written at packaging time: node-llama-cpp bundled (nodeLlamaCpp.ts). */
export function bundledFiles(target: Target): string[] {
  return target === "linux-x64" ? NODE_LLAMA_CPP_FILES : [];
}

/** Every file of the package for target, relative to root, "/"-separated, sorted. */
export function packageContents(root: string, target: Target): string[] {
  return [...checkoutFiles(root, target), ...bundledFiles(target)].sort();
}

/** Files the extension cannot run without; the package build and its test fail when one is missing. */
export function requiredFiles(target: Target): string[] {
  const common = [
    "package.json",
    "package.nls.json",
    "README.md",
    "CHANGELOG.md",
    "LICENSE",
    "media/icon.png",
    "language-configuration.json",
    "syntaxes/chat-template.tmLanguage.json",
    "templates/scenario.schema.json",
    "dist/client.js",
    "dist/server.js",
    "dist/cli.js",
    "dist/endpoint.js",
    "dist/analysisWorker.js",
    "dist/renderProgress.js",
    "dist/templateGuardWorker.js",
    "dist/llamacppWorker.js",
    "dist/dialectWorker.js",
    "dist/templateTestWorker.js",
    "dist/debugWorker.js",
    "dist/preview/main.js",
    "dist/preview/preview.css",
  ];
  if (target === "universal") return common;
  return [
    ...common,
    "native/build/cmake/bin/cts_engine.node",
    "native/build/cmake/bin/cts_loader.node",
    "node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/llama-addon.node",
    "node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/libllama.v0.5.0.so",
    "node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/libllama-common.so",
    "node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/libggml-cpu-x64.so",
    "node_modules/node-llama-cpp/package.json",
    "node_modules/node-llama-cpp/dist/index.js",
    "node_modules/node-llama-cpp/dist/bindings/utils/testBindingBinary.js",
    "node_modules/node-llama-cpp/llama/binariesGithubRelease.json",
  ];
}

/** Why a listing is not a package of target, or [] when it is. */
export function contentProblems(files: string[], target: Target): string[] {
  const problems: string[] = [];
  const set = new Set(files);
  for (const f of requiredFiles(target)) if (!set.has(f)) problems.push(`missing ${f}`);
  for (const f of files) {
    if (/^(cli|test|client|server|native\/(src|engine|endpoint|cli|testModels|build\/llama\.cpp))\//.test(f))
      problems.push(`development file ${f}`);
    else if (/\.([cm]?ts|map)$/.test(f)) problems.push(`source file ${f}`);
    else if (/(^|\/)gitRelease\.bundle$|CMakeCache\.txt$|(^|\/)CMakeFiles\//.test(f)) problems.push(`build intermediate ${f}`);
    else if (target === "universal" && (/\.(node|so)$/.test(f) || f.startsWith("node_modules/")))
      problems.push(`native file in the universal package ${f}`);
  }
  return problems;
}
