// Runs every *.test.ts under test/ with node's built-in test runner (TypeScript through tsx).
// Node 20's --test takes no globs, so the files are listed here. Extra arguments narrow the set:
// `node test/run.mjs parser` runs the files whose path contains "parser".
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { spawnSync } from "node:child_process";

const root = new URL(".", import.meta.url).pathname;
const skip = new Set(["e2e", "fixtures", "bench"]);
function collect(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return skip.has(name) ? [] : collect(p);
    return name.endsWith(".test.ts") ? [p] : [];
  });
}
const filters = process.argv.slice(2);
const files = collect(root)
  .filter((f) => filters.length === 0 || filters.some((s) => relative(root, f).includes(s)))
  .sort();
if (files.length === 0) {
  console.error("no test files matched");
  process.exit(1);
}
const r = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", ...files], {
  stdio: "inherit",
});
process.exit(r.status ?? 1);
