import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { strftime } from "../../../../server/src/dialects/llamacpp/strftime";

// 2026-01-15 was a Thursday, day 15 of the year, in ISO week 3.
const T = { year: 2026, month: 1, day: 15, hour: 9, minute: 5, second: 7, microsecond: 0 };

describe('llamacpp strftime_now (C strftime, "C" locale)', () => {
  it("formats the directives chat templates use", () => {
    assert.equal(strftime("%Y-%m-%d", T), "2026-01-15");
    assert.equal(strftime("%d %b %Y", T), "15 Jan 2026");
    assert.equal(strftime("%B %d, %Y", T), "January 15, 2026");
    assert.equal(strftime("%A %a %j %H:%M:%S %I %p %e %y %%", T), "Thursday Thu 015 09:05:07 09 AM 15 26 %");
    assert.equal(strftime("%c|%D|%F|%T|%R|%u|%w", T), "Thu Jan 15 09:05:07 2026|01/15/26|2026-01-15|09:05:07|09:05|4|4");
  });
  it("fails (null) where strftime returns 0: an empty result or 100 bytes or more", () => {
    assert.equal(strftime("", T), null);
    assert.equal(strftime("x".repeat(99), T), "x".repeat(99));
    assert.equal(strftime("x".repeat(100), T), null);
  });
});
