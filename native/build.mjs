// Builds the native engine (addons + bench) against node-llama-cpp's prebuilt llama.cpp; run by `npm ci`
// (prepare) and `npm run build:native`. Nothing is downloaded and llama.cpp is not compiled: its headers
// come from the git bundle inside the node-llama-cpp package, its libraries from @node-llama-cpp/linux-x64.
// Incremental: reruns only rebuild what changed.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join, resolve } from "node:path";

const here = dirname(new URL(import.meta.url).pathname);

// Packages are found on disk: node-llama-cpp's "exports" hide its files from require.resolve.
function packageDir(name) {
  for (let dir = here; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
  }
  throw new Error(`native engine: package ${name} is not installed (run npm ci)`);
}
const build = join(here, "build");

if (process.platform !== "linux" || process.arch !== "x64") {
  console.log(
    `native engine: skipped (prebuilt llama.cpp libraries are wired up for linux-x64 only, this is ${process.platform}-${process.arch})`,
  );
  process.exit(0);
}

function run(cmd, args, options = {}) {
  try {
    return execFileSync(cmd, args, { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8", ...options });
  } catch (e) {
    if (e.code === "ENOENT")
      throw new Error(`native engine: '${cmd}' is not installed (the build needs git, cmake and a C++17 compiler)`, { cause: e });
    process.stderr.write(e.stdout ?? "");
    process.stderr.write(e.stderr ?? "");
    throw new Error(`native engine: ${cmd} ${args.join(" ")} failed`, { cause: e });
  }
}

// llama.cpp's headers, checked out from the bundle of the exact release the prebuilt libraries are
const llamaPkg = packageDir("node-llama-cpp");
const bundle = join(llamaPkg, "llama", "gitRelease.bundle");
const src = join(build, "llama.cpp");
const stamp = join(src, ".cts-checkout");
const headHash = run("git", ["bundle", "list-heads", bundle]).split(/\s/)[0];
if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== headHash) {
  mkdirSync(build, { recursive: true });
  run("rm", ["-rf", src]);
  run("git", ["clone", "--quiet", "--no-checkout", bundle, src]);
  run("git", ["-C", src, "checkout", "--quiet", headHash, "--", "include", "ggml/include", "common", "src/llama-ext.h"]);
  writeFileSync(stamp, headHash);
}

const libDir = join(packageDir("@node-llama-cpp/linux-x64"), "bins", "linux-x64");
const nodeDir = process.env.npm_config_nodedir || resolve(dirname(process.execPath), "..");
const nodeInclude = join(nodeDir, "include", "node");
if (!existsSync(join(nodeInclude, "node_api.h"))) {
  throw new Error(`native engine: Node's headers are not in ${nodeInclude}; set npm's nodedir (npm config set nodedir DIR)`);
}
const addonApi = packageDir("node-addon-api");

const cmakeBuild = join(build, "cmake");
const config = [
  "-S",
  here,
  "-B",
  cmakeBuild,
  "-DCMAKE_BUILD_TYPE=Release",
  `-DLLAMA_SRC=${src}`,
  `-DLLAMA_LIB_DIR=${libDir}`,
  `-DNODE_INCLUDE_DIR=${nodeInclude}`,
  `-DNODE_ADDON_API_DIR=${addonApi}`,
];
const t0 = Date.now();
if (!existsSync(join(cmakeBuild, "CMakeCache.txt"))) run("cmake", config);
run("cmake", ["--build", cmakeBuild, "--parallel", String(Math.max(1, cpus().length))]);
const seconds = ((Date.now() - t0) / 1000).toFixed(1);
console.log(`native engine: built ${join(cmakeBuild, "bin")} in ${seconds} s`);
