import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { intOption, UsageError } from "../../../server/src/commandLine";

describe("intOption", () => {
  it("reads an integer inside the range, and nothing when the flag is absent", () => {
    assert.equal(intOption("port", "8080", 0, 65535), 8080);
    assert.equal(intOption("gpu-layers", "-1", -1), -1);
    assert.equal(intOption("port", undefined, 0, 65535), undefined);
  });

  it("refuses fractions, words and values out of range, naming the flag, the range and the value", () => {
    assert.throws(() => intOption("indent", "2.5", 1, 16), new UsageError("--indent must be an integer from 1 to 16 (got '2.5')"));
    assert.throws(() => intOption("indent", "0x10", 1, 16), /--indent must be an integer from 1 to 16 \(got '0x10'\)/);
    assert.throws(() => intOption("indent", "17", 1, 16), UsageError);
    assert.throws(() => intOption("tokens", "0", 1), new UsageError("--tokens must be an integer >= 1 (got '0')"));
    assert.throws(() => intOption("tokens", "", 1), UsageError);
  });
});
