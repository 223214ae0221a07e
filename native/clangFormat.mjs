// clang-format over native/src with native/.clang-format: `--check` (npm run lint:native, part of npm run
// lint) runs `clang-format --dry-run -Werror`, which names each line whose layout differs; `--write` (npm
// run format) rewrites the files. clang-format is a system tool (Debian: apt-get install clang-format) that
// .ci/run installs; where it is absent the check says so and passes, so the TypeScript checks still run
// everywhere, unless CTS_REQUIRE_CLANG_FORMAT=1 (set by .ci/run) makes its absence a failure.
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";

const here = import.meta.dirname;
const mode = process.argv[2];
if (mode !== "--check" && mode !== "--write") {
  console.error("usage: node native/clangFormat.mjs --check|--write");
  process.exit(2);
}
try {
  execFileSync("clang-format", ["--version"], { stdio: "ignore" });
} catch {
  const required = process.env.CTS_REQUIRE_CLANG_FORMAT === "1";
  const say = required ? console.error : console.log;
  say(
    `clang-format is not installed: native/src's layout is ${required ? "required to be" : "not"} checked (apt-get install clang-format)`,
  );
  process.exit(required ? 1 : 0);
}
const files = readdirSync(join(here, "src"), { recursive: true })
  .filter((f) => /\.(cpp|h)$/.test(f))
  .map((f) => join("native", "src", f))
  .sort();
const args = mode === "--write" ? ["-i", ...files] : ["--dry-run", "-Werror", ...files];
const r = spawnSync("clang-format", args, { cwd: join(here, ".."), stdio: "inherit" });
if (r.status !== 0 && mode === "--check")
  console.error("native/src: layout differs from native/.clang-format (npm run format rewrites it)");
process.exit(r.status ?? 1);
