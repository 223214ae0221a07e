import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, it } from "node:test";
import { runCli } from "../../helpers/cli";

const ROOT = resolve(__dirname, "../../..");

/** The shell commands of the README's first `sh` block after the heading "Quick start on the command line". */
function quickStartCommand(): string[] {
  const readme = readFileSync(resolve(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Quick start on the command line"));
  const block = /```sh\n([^\n]+)\n/.exec(section);
  assert.ok(block, "the quick start has a sh block");
  const words = block[1]!.trim().split(/\s+/);
  assert.deepEqual(words.slice(0, 2), ["npx", "chat-template"]);
  return words.slice(2);
}

describe("the README's first command", () => {
  it("exits 0 on a fresh clone and shows a finding", () => {
    const r = runCli(quickStartCommand(), { cwd: ROOT });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /: warning: .+ \[[a-z0-9-]+\/[a-z-]+\]$/m);
  });
});
