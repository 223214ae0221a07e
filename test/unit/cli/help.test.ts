import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { main } from "../../../cli/main";
import type { CommandIO } from "../../../server/src/commandLine";

const COMMANDS = [
  "check",
  "render",
  "caps",
  "fix",
  "extract",
  "test",
  "ab",
  "debug-adapter",
  "serve",
  "bench",
  "make-test-models",
  "install-cuda",
];

async function run(argv: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: CommandIO = {
    stdout: (s) => void (stdout += typeof s === "string" ? s : Buffer.from(s).toString()),
    stderr: (s) => void (stderr += s),
  };
  const status = await main(argv, io);
  return { status, stdout, stderr };
}

describe("chat-template help", () => {
  it("--help lists every command with one line each", async () => {
    const r = await run(["--help"]);
    assert.equal(r.status, 0);
    for (const c of COMMANDS) assert.match(r.stdout, new RegExp(`^  ${c} +\\S`, "m"), c);
    assert.match(r.stdout, /COMMAND --help/);
  });

  for (const c of COMMANDS) {
    it(`${c} --help: description, options, examples and exit codes, exit 0, nothing run`, async () => {
      for (const flag of ["--help", "-h"]) {
        const r = await run([c, flag]);
        assert.equal(r.status, 0, r.stderr);
        assert.equal(r.stderr, "");
        assert.match(r.stdout, new RegExp(`^usage: chat-template ${c}`));
        assert.match(r.stdout, /\n\nexamples:\n {2}chat-template /);
        assert.match(r.stdout, /\n\nexit status:\n {2}0 {2}\S/);
        const description = r.stdout.split("\n\n")[1]!;
        assert.ok(description.length > 150, `a paragraph, not a line: ${description}`);
      }
    });
  }

  it("help COMMAND is COMMAND --help; --help after other arguments still wins", async () => {
    assert.equal((await run(["help", "caps"])).stdout, (await run(["caps", "--help"])).stdout);
    const r = await run(["render", "no-such-file.jinja", "--help"]);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^usage: chat-template render/);
  });

  it("a usage error points at --help", async () => {
    const r = await run(["caps", "--bogus"]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unknown option --bogus\nusage: chat-template caps .*\n\(chat-template caps --help tells more\)/);
  });
});
