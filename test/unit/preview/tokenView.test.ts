import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { TokenPiece } from "../../../client/src/gguf/modelBinding";
import { tokenView } from "../../../client/src/preview/model/tokenView";

const t = (id: number, text: string, special = false): TokenPiece => ({ id, text, special });

describe("the preview's token view", () => {
  it("lays the tokens over the text with their ids and counts them", () => {
    const v = tokenView("<|im_start|>user\nhi", [t(1, "<|im_start|>", true), t(20, "user"), t(21, "\n"), t(22, "hi")], null);
    assert.equal(v.count, 4);
    assert.deepEqual(
      v.cells.map((c) => [c.id, c.start, c.end, c.special, c.flag]),
      [
        [1, 0, 12, true, null],
        [20, 12, 16, false, null],
        [21, 16, 17, false, null],
        [22, 17, 19, false, null],
      ],
    );
    assert.deepEqual(v.problems, []);
  });

  it("flags a BOS the template writes where llama.cpp adds one too, and two BOS tokens in a row", () => {
    const added = tokenView("<s>hi", [t(1, "<s>", true), t(5, "hi")], { id: 1, addedByRuntime: true });
    assert.match(added.cells[0].flag!, /^double BOS: the template writes the BOS token and llama\.cpp adds another/);
    assert.equal(added.problems.length, 1);
    const twice = tokenView("<s><s>hi", [t(1, "<s>", true), t(1, "<s>", true), t(5, "hi")], { id: 1, addedByRuntime: false });
    assert.equal(twice.cells[0].flag, null);
    assert.match(twice.cells[1].flag!, /^double BOS/);
    assert.deepEqual(tokenView("<s>hi", [t(1, "<s>", true), t(5, "hi")], { id: 1, addedByRuntime: false }).problems, []);
  });

  it("flags text shaped like a special token that the vocabulary splits into ordinary tokens", () => {
    const v = tokenView("a<|im_sep|>b", [t(3, "a"), t(9, "<|"), t(10, "im"), t(11, "_sep"), t(9, "|>"), t(4, "b")], null);
    assert.deepEqual(
      v.cells.map((c) => c.flag !== null),
      [false, true, true, true, true, false],
    );
    assert.deepEqual(v.problems, ["'<|im_sep|>' is not a special token of this model: it becomes 4 ordinary tokens"]);
  });
});
