// The demo pair's cache under concurrent creators (two VS Code windows, two endpoints starting at once on a
// fresh storage folder): no process ever sees a demo file that is not whole, all end with the same bytes,
// and a cache whose file does not match its manifest is written again.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync, truncateSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, describe, it } from "node:test";
import { ensureDemoModels } from "../../../native/testModels/demo";
import { writeRandomPair } from "../../../native/testModels/pairs";
import { tempDir } from "../../helpers/gguf";
import { HANG_GUARD_MS } from "../../helpers/hangGuard";

const tmp = tempDir("demo-models");
after(tmp.cleanup);

const CREATORS = 4;
const ROUNDS = 3;
/** How long each creator keeps watching the files after its own call returned, while the others write. */
const WATCH_MS = 300;

// A creator loads the modules first, then waits for a folder on stdin, so that all of them start writing at
// once; it answers with every size it saw its files at from its return until WATCH_MS later.
const CREATOR = `
  const { statSync } = require("node:fs");
  const { ensureDemoModels } = require(${JSON.stringify(join(__dirname, "../../../native/testModels/demo.ts"))});
  require("node:readline").createInterface({ input: process.stdin }).on("line", (dir) => {
    const files = ensureDemoModels({ dir });
    const sizes = { target: new Set(), draft: new Set() };
    for (const end = Date.now() + ${WATCH_MS}; Date.now() < end; ) for (const k of ["target", "draft"]) sizes[k].add(statSync(files[k]).size);
    console.log(JSON.stringify({ files, target: [...sizes.target], draft: [...sizes.draft] }));
  });`;

interface Seen {
  files: { target: string; draft: string };
  target: number[];
  draft: number[];
}

function creator() {
  const child = spawn(process.execPath, ["--import", "tsx", "-e", CREATOR], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout! });
  const answers: ((s: Seen) => void)[] = [];
  lines.on("line", (l) => answers.shift()?.(JSON.parse(l) as Seen));
  return {
    create(dir: string): Promise<Seen> {
      return new Promise((resolve) => {
        answers.push(resolve);
        child.stdin!.write(dir + "\n");
      });
    },
    end: () => child.stdin!.end(),
  };
}

describe("demo models", { timeout: HANG_GUARD_MS }, () => {
  // what ensureDemoModels generates, written here once without any concurrency
  const reference = writeRandomPair(join(tmp.dir, "reference"), "demo-random", { toolCalls: true, agentDemo: true });
  const bytes = { target: readFileSync(reference.target), draft: readFileSync(reference.draft) };

  it("concurrent creators on a fresh folder see only whole files and agree on them", async () => {
    const creators = Array.from({ length: CREATORS }, creator);
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const dir = join(tmp.dir, `fresh-${round}`);
        const seen = await Promise.all(creators.map((c) => c.create(dir)));
        for (const s of seen) {
          assert.deepEqual(s.files, seen[0].files, "every creator returns the same paths");
          assert.deepEqual(s.target, [bytes.target.length], "the target was never seen partly written");
          assert.deepEqual(s.draft, [bytes.draft.length], "the draft was never seen partly written");
        }
        assert.ok(readFileSync(seen[0].files.target).equals(bytes.target));
        assert.ok(readFileSync(seen[0].files.draft).equals(bytes.draft));
        assert.deepEqual(
          readdirSync(dir).sort(),
          ["demo-random-draft.gguf", "demo-random-target.gguf", "random.json"],
          "no temporary file is left behind",
        );
      }
    } finally {
      for (const c of creators) c.end();
    }
  });

  it("a cached file cut short (by a writer that died, or an older version's in-place write) is written again", () => {
    const dir = join(tmp.dir, "cut");
    const first = ensureDemoModels({ dir });
    truncateSync(first.target, 1000);
    const again = ensureDemoModels({ dir });
    assert.equal(statSync(again.target).size, bytes.target.length);
    assert.ok(readFileSync(again.target).equals(bytes.target));
  });
});
