// Runs the *.test.ts under test/ with node's built-in test runner (TypeScript through tsx).
// Node 20's --test takes no globs, so the files are listed here. Extra arguments narrow the set:
// `node test/run.mjs parser` runs the files whose path contains "parser".
//
// `npm test` leaves out the suites of FULL_ONLY, which take most of a run; `npm run test:full` (`--full`, what
// .ci/run runs) adds them. A filter that names one of them runs it either way.
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { spawnSync } from "node:child_process";
import { FULL_ONLY } from "./fullOnly.mjs";

const root = new URL(".", import.meta.url).pathname;
const skip = new Set(["e2e", "fixtures", "bench"]);
function collect(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return skip.has(name) ? [] : collect(p);
    return name.endsWith(".test.ts") ? [p] : [];
  });
}

const args = process.argv.slice(2);
const full = args.includes("--full");
const filters = args.filter((a) => a !== "--full");
const files = collect(root)
  .filter((f) => {
    const rel = relative(root, f);
    if (filters.length) return filters.some((s) => rel.includes(s));
    return full || !FULL_ONLY.includes(rel);
  })
  .sort();
if (files.length === 0) {
  console.error("no test files matched");
  process.exit(1);
}
if (!full && !filters.length) console.log(`# ${FULL_ONLY.length} slow suites left out: npm run test:full runs them too`);
const r = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", ...files], {
  stdio: "inherit",
});
process.exit(r.status ?? 1);
