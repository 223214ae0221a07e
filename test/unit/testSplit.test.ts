import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, it } from "node:test";
import { FULL_ONLY } from "../fullOnly.mjs";

const TEST = resolve(__dirname, "..");

describe("the split between npm test and npm run test:full", () => {
  it("names only suites that exist, so a renamed one is not silently left out of both", () => {
    for (const f of FULL_ONLY) assert.ok(existsSync(resolve(TEST, f)), `${f} does not exist`);
  });

  it("test:full is what CI runs", () => {
    const ci = readFileSync(resolve(TEST, "../.ci/run"), "utf8");
    assert.match(ci, /^npm run test:full$/m);
    const scripts = JSON.parse(readFileSync(resolve(TEST, "../package.json"), "utf8")).scripts;
    assert.match(scripts["test:full"], /node test\/run\.mjs --full$/);
  });
});
