import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { rateDifference, wilson } from "../../../server/src/templateTests/stats";

const near = (a: number, b: number) => assert.ok(Math.abs(a - b) < 5e-4, `${a} ≠ ${b}`);

describe("A/B statistics", () => {
  it("Wilson's interval matches the published values", () => {
    // Newcombe (1998), table I: 81/263 → 0.2553–0.3662; 15/148 → 0.0624–0.1605; 0/20 → 0–0.1611
    let i = wilson(81, 263);
    near(i.low, 0.2553);
    near(i.high, 0.3662);
    i = wilson(15, 148);
    near(i.low, 0.0624);
    near(i.high, 0.1605);
    i = wilson(0, 20);
    near(i.low, 0);
    near(i.high, 0.1611);
    assert.deepEqual(wilson(0, 0), { low: 0, high: 1 });
  });

  it("Newcombe's interval for a difference matches the published values and says when it excludes 0", () => {
    // Newcombe (1998b), example (a): 56/70 vs 48/80 → difference 0.2000, interval 0.0524–0.3339 (method 10)
    const d = rateDifference({ successes: 48, n: 80 }, { successes: 56, n: 70 });
    near(d.value, 0.2);
    near(d.low, 0.0524);
    near(d.high, 0.3339);
    assert.equal(d.significant, true);
    // example (c): 5/56 vs 0/29 → 0.0893, −0.0381–0.1926
    const c = rateDifference({ successes: 0, n: 29 }, { successes: 5, n: 56 });
    near(c.low, -0.0381);
    near(c.high, 0.1926);
    assert.equal(c.significant, false);
  });
});
