import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { parse } from "../../../server/src/parser/parser";
import { corpusDir } from "../../helpers/corpus";

describe("every real template in the shared corpus parses with no problem", () => {
  const dir = corpusDir("templates");
  const files = readdirSync(dir).filter((f) => f.endsWith(".jinja"));
  it("finds the corpus", () => assert.ok(files.length >= 50));
  for (const f of files) {
    it(f, () => assert.deepEqual(parse(readFileSync(`${dir}/${f}`, "utf8")).problems, []));
  }
});
