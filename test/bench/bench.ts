// `npm run bench`: runs every suite in this folder (files named *.bench.ts) and prints medians.
// Targets are checked here by eye and in issue notes, never in timed tests.
import { readdirSync } from "node:fs";
import { join } from "node:path";

export interface BenchSuite {
  name: string;
  run(): Promise<void> | void;
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith(".bench.ts"))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort();
  for (const f of files) {
    const suite = (await import(join(__dirname, f))).default as BenchSuite;
    console.log(`\n== ${suite.name}`);
    await suite.run();
  }
}

void main();
