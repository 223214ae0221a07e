// The C++ unit tests of engine parts that need no model (native/src/tests): the DFlash draft-length
// controller on simulated acceptance by position and by context, and the stream's message tracker and parse
// pacing on hand-made parses and times.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, it } from "node:test";
import { nativeBinDir } from "../../../native/engine/paths";

describe("engine-unit-tests", () => {
  it("passes: the draft controller goes plain on a rejected draft, drafts full blocks on an accepted one, follows context and recovers", () => {
    const r = spawnSync(join(nativeBinDir(), "engine-unit-tests"), { encoding: "utf8" });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /all passed/);
  });

  it("passes: the message tracker sends what each parse adds, never takes text back, and announces calls once named, in order", () => {
    const r = spawnSync(join(nativeBinDir(), "message-tracker-tests"), { encoding: "utf8" });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /all passed/);
  });

  it("passes: ill-formed UTF-8 in model output is read as JavaScript reads it (each maximal subpart one U+FFFD)", () => {
    const r = spawnSync(join(nativeBinDir(), "utf8-tests"), { encoding: "utf8" });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /all passed/);
  });

  it("passes: a stream's partial parses wait for nothing until one sends something, then keep to 2 % of the time and at most 30 a second", () => {
    const r = spawnSync(join(nativeBinDir(), "parse-pacing-tests"), { encoding: "utf8" });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /all passed/);
  });
});
