import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { diffChanges, toReferenceOffset, type Change } from "../../../client/src/preview/model/diff";
import { rng } from "../../helpers/random";

/** Applies the changes to `a`, taking the replacement text from `b`: must give `b` back. */
function apply(a: string, b: string, changes: Change[]): string {
  let out = "";
  let at = 0;
  for (const c of changes) {
    out += a.slice(at, c.aStart) + b.slice(c.bStart, c.bEnd);
    at = c.aEnd;
  }
  return out + a.slice(at);
}

describe("diffChanges", () => {
  it("finds nothing in equal strings", () => {
    assert.deepEqual(diffChanges("same", "same"), []);
    assert.deepEqual(diffChanges("", ""), []);
  });

  it("marks a replaced word as one change in both strings", () => {
    assert.deepEqual(diffChanges("value: None.", "value: .", 100), [{ aStart: 7, aEnd: 11, bStart: 7, bEnd: 7 }]);
    assert.deepEqual(diffChanges("x=True;", "x=true;"), [{ aStart: 2, aEnd: 3, bStart: 2, bEnd: 3 }]);
  });

  it("keeps separate differences separate", () => {
    const a = "<s>user: hi</s> <s>assistant: hello</s>";
    const b = "<s>user: hi</s>\n<s>assistant: hello</s>\n";
    assert.deepEqual(diffChanges(a, b), [
      { aStart: 15, aEnd: 16, bStart: 15, bEnd: 16 },
      { aStart: 39, aEnd: 39, bStart: 39, bEnd: 40 },
    ]);
  });

  it("reads None → null as one replacement, not scattered letters", () => {
    const changes = diffChanges("a None b", "a null b");
    assert.deepEqual(changes, [{ aStart: 2, aEnd: 6, bStart: 2, bEnd: 6 }]);
  });

  it("never splits a surrogate pair", () => {
    const [c] = diffChanges("x😀y", "x😁y");
    assert.deepEqual(c, { aStart: 1, aEnd: 3, bStart: 1, bEnd: 3 });
  });

  it("past maxEdits reports the whole differing middle as one change", () => {
    assert.deepEqual(diffChanges("[abcdef]", "[uvwxyz]", 3), [{ aStart: 1, aEnd: 7, bStart: 1, bEnd: 7 }]);
  });

  it("always describes how to turn the reference into the other output (random strings)", () => {
    const next = rng(7);
    const word = () => Array.from({ length: Math.floor(next() * 30) }, () => "ab \n<|>x"[Math.floor(next() * 8)]).join("");
    for (let i = 0; i < 500; i++) {
      const a = word();
      const b = next() < 0.3 ? a : word();
      const changes = diffChanges(a, b);
      assert.equal(apply(a, b, changes), b, JSON.stringify({ a, b, changes }));
      for (let j = 1; j < changes.length; j++) assert.ok(changes[j].aStart > changes[j - 1].aEnd, "changes are ordered and separated");
    }
  });
});

describe("toReferenceOffset", () => {
  const a = "Hello None world";
  const b = "Hello  world!";
  const changes = diffChanges(a, b);

  it("maps equal text before and after a change", () => {
    assert.equal(toReferenceOffset(changes, 0), 0);
    assert.equal(b.slice(7), "world!");
    assert.equal(a[toReferenceOffset(changes, 7)], "w");
  });

  it("maps an offset inside a change into the reference's side of it", () => {
    const inserted = diffChanges("ab", "aXYZb");
    assert.equal(toReferenceOffset(inserted, 2), 1);
  });
});
