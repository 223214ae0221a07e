import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { it } from "node:test";
import { CORPUS_ROOT } from "../helpers/corpus";

const ORIGINAL = resolve(__dirname, "../../../shared/corpus");

function digest(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(root, p), createHash("sha256").update(readFileSync(p)).digest("hex"));
    }
  };
  walk(root);
  return out;
}

it(
  "the corpus copy is byte-identical to ../shared/corpus",
  { skip: !existsSync(ORIGINAL) && "../shared/corpus is not next to this checkout" },
  () => {
    assert.deepEqual(digest(CORPUS_ROOT), digest(ORIGINAL));
  },
);
