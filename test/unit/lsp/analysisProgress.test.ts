// The language server's side of the analysis process's progress reports (progressPipe/reportedProgress.ts): the last
// position of the request that asks, whatever the pipe's chunks cut.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PassThrough } from "node:stream";
import { ReportedProgress } from "../../../server/src/progressPipe";

const flushed = () => new Promise((r) => setImmediate(r));

describe("reported progress", () => {
  it("keeps the last whole line, and answers only the request that reported it", async () => {
    const pipe = new PassThrough();
    const progress = new ReportedProgress(pipe);
    pipe.write("3 10 20\n3 4");
    await flushed();
    assert.deepEqual(progress.of(3), { start: 10, end: 20 });
    pipe.write("0 50\n");
    await flushed();
    assert.deepEqual(progress.of(3), { start: 40, end: 50 });
    assert.equal(progress.of(4), null);
  });
});
