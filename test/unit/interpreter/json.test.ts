import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PyDict } from "../../../server/src/interpreter/dict";
import { fromJS, JsonError, parseJson } from "../../../server/src/interpreter/json";
import { run } from "./renderHelper";

describe("JSON contexts keep Python's number types (json.loads, not JSON.parse)", () => {
  it("ints are exact ints, floats stay floats", () => {
    const v = parseJson('{"a": 1, "b": 1.0, "c": 12345678901234567890, "d": -0, "e": -0.0, "f": 1e400, "g": 2.5e-7}') as PyDict;
    assert.equal(v.get("a"), 1n);
    assert.equal(v.get("b"), 1);
    assert.equal(v.get("c"), 12345678901234567890n);
    assert.equal(v.get("d"), 0n);
    assert.ok(Object.is(v.get("e"), -0));
    assert.equal(v.get("f"), Infinity);
    assert.equal(v.get("g"), 2.5e-7);
  });

  it("and print as Python prints them", () => {
    const ctx = '{"a": 1, "b": 1.0, "c": 12345678901234567890, "e": -0.0, "f": 1e16, "g": 2.5e-7, "h": 0.1}';
    assert.equal(
      run("{{ a }} {{ b }} {{ c }} {{ e }} {{ f }} {{ g }} {{ h }} {{ c + 1 }} {{ b | tojson }}", ctx).output,
      "1 1.0 12345678901234567890 -0.0 1e+16 2.5e-07 0.1 12345678901234567891 1.0",
    );
  });

  it("accepts what Python's json.loads accepts (NaN, Infinity) and keeps key order, last duplicate winning", () => {
    const v = parseJson('{"z": NaN, "a": -Infinity, "z": 3}') as PyDict;
    assert.deepEqual([...v.keys()], ["z", "a"]);
    assert.equal(v.get("z"), 3n);
    assert.equal(v.get("a"), -Infinity);
  });

  it("decodes escapes, including surrogate pairs and lone surrogates", () => {
    assert.equal(parseJson('"\\ud83d\\ude00 \\u00e9 \\n \\" \\/ \\ud800"'), '😀 é \n " / \ud800');
  });

  it("reports errors with line and column", () => {
    assert.throws(
      () => parseJson('{\n  "a": 1,\n  "b" 2\n}'),
      (e: unknown) => e instanceof JsonError && e.line === 3 && e.column === 7,
    );
    for (const bad of ["", "{", "[1,]", "{'a': 1}", '"\\x"', "01", "1 2", '"a\nb"', "tru"]) {
      assert.throws(() => parseJson(bad), JsonError, bad);
    }
  });

  it("fromJS maps plain JS data (integral numbers become ints)", () => {
    const v = fromJS({ a: 1, b: 1.5, c: [null, true], d: { e: "x" }, f: undefined }) as PyDict;
    assert.deepEqual([v.get("a"), v.get("b"), v.get("c"), (v.get("d") as PyDict).get("e"), v.get("f")], [1n, 1.5, [null, true], "x", null]);
  });
});
