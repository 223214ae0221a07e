import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { progressLine, type CommandIO } from "../../../server/src/commandLine";
import { speedupText } from "../../../native/cli/bench";
import { main } from "../../../cli/main";
import { resolve } from "node:path";

function io(tty: boolean): CommandIO & { err: string } {
  const o = { err: "", stdout: () => {}, stderr: (s: string) => void (o.err += s), stderrIsTTY: tty };
  return o;
}

describe("progress lines", () => {
  it("on a terminal: redrawn in place on stderr, cleared when done", () => {
    const t = io(true);
    const p = progressLine(t, "ab");
    p.update("1 of 2");
    p.update("2 of 2");
    p.done();
    assert.equal(t.err, "\r\x1b[2Kab: 1 of 2\r\x1b[2Kab: 2 of 2\r\x1b[2K");
  });

  it("piped or captured stderr gets nothing", () => {
    const t = io(false);
    const p = progressLine(t, "ab");
    p.update("1 of 2");
    p.done();
    assert.equal(t.err, "");
  });
});

describe("chat-template test's progress", () => {
  it("names each case as it runs on a terminal, and clears the line before the report", async () => {
    const t = {
      err: "",
      out: "",
      stderrIsTTY: true,
      stderr: (s: string) => void (t.err += s),
      stdout: (s: string | Uint8Array) => void (t.out += String(s)),
    };
    const status = await main(["test", resolve(__dirname, "../../../templates/starters/chatml.chat-template-test.json")], t);
    assert.equal(status, 0, t.err + t.out);
    assert.match(t.err, /^\r\x1b\[2Ktest: 1 of \d+ cases: .+chatml\.chat-template-test\.json, '.+'/);
    assert.ok(t.err.endsWith("\r\x1b[2K"));
    assert.ok(t.out.length > 0);
  });
});

describe("bench's speedup line", () => {
  it("says how many times plain decoding's speed, next to the prediction, without a percentage of it", () => {
    assert.equal(speedupText(1.4812, 0.7499), "DFlash: 1.48× plain decoding's speed (0.75× predicted from the measured step costs)");
  });
});
