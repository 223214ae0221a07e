import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { segments, visibleWhitespace } from "../../../client/src/preview/model/segments";

describe("segments", () => {
  it("splits at differences, special tokens and whitespace runs, and covers the text exactly", () => {
    const text = "<s>hi  there\n";
    const segs = segments(text, [{ start: 4, end: 8, reference: "" }], [{ start: 0, end: 3 }]);
    assert.deepEqual(
      segs.map((s) => [text.slice(s.start, s.end), s.diff, s.special, s.ws]),
      [
        ["<s>", false, true, false],
        ["h", false, false, false],
        ["i", true, false, false],
        ["  ", true, false, true],
        ["t", true, false, false],
        ["here", false, false, false],
        ["\n", false, false, true],
      ],
    );
  });

  it("a zero-width difference becomes a marker carrying what the reference has there", () => {
    const segs = segments("ab", [{ start: 1, end: 1, reference: "None" }], []);
    assert.deepEqual(segs, [
      { start: 0, end: 1, diff: false, special: false, ws: false },
      { start: 1, end: 1, diff: true, special: false, ws: false, missing: "None" },
      { start: 1, end: 2, diff: false, special: false, ws: false },
    ]);
    assert.deepEqual(segments("", [{ start: 0, end: 0, reference: "x" }], [])[0].missing, "x");
  });

  it("counts zero-width spaces and joiners as whitespace", () => {
    const segs = segments("a\u200bb", [], []);
    assert.deepEqual(
      segs.map((s) => s.ws),
      [false, true, false],
    );
  });
});

describe("visibleWhitespace", () => {
  it("draws spaces, tabs, carriage returns and other blanks, and keeps line breaks", () => {
    assert.equal([" ", "\t", "\n", "\r", "\u00a0", "\u200b"].map(visibleWhitespace).join(""), "·→↵\n␍␣␣");
  });
});
