// `chat-template --version` prints the package's version, read from the package.json it ships with.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runCli } from "../../helpers/cli";

const { version } = JSON.parse(readFileSync(join(__dirname, "..", "..", "..", "package.json"), "utf8")) as { version: string };

describe("chat-template --version", () => {
  it("prints the package's version and exits 0, also as -v", () => {
    for (const flag of ["--version", "-v"]) {
      const r = runCli([flag]);
      assert.equal(r.status, 0);
      assert.equal(r.stdout, `chat-template ${version}\n`);
      assert.equal(r.stderr, "");
    }
  });

  it("is in the help", () => {
    assert.match(runCli(["--help"]).stdout, /\nchat-template --version prints the version\.\n/);
  });
});
