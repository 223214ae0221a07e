// Floats print through glibc (%f via std::to_string, %g via ostream) with exact half-even rounding,
// and the int/float filters read strings with strtol/strtod; both compared with the engine itself.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { llamaFloatString, printfFixed, printfGeneral } from "../../../../server/src/dialects/llamacpp/cDouble";
import { stod, stoi } from "../../../../server/src/dialects/llamacpp/cParse";
import { rng } from "../../../helpers/random";
import { renderRealLlamaCpp } from "../../../helpers/realLlamaCpp";

function randomDoubles(n: number): number[] {
  const r = rng(11);
  const out = [0.0078125, 123456.5, 1e20, 1234567, 0.00001, 0.0001, 2.5e-7, 999999.5, 9999995, 5e-324, 1.7976931348623157e308, -2.5];
  while (out.length < n) {
    const k = r();
    let v: number;
    if (k < 0.3) v = (r() - 0.5) * 10 ** Math.floor(r() * 40 - 20);
    else if (k < 0.6) v = Math.round(r() * 1e7) / 2 ** Math.floor(r() * 12);
    else if (k < 0.8) v = Math.round(r() * 1e6) / 1e6 + 5e-7;
    else
      v = new Float64Array(new BigUint64Array([(BigInt(Math.floor(r() * 2 ** 32)) << 32n) | BigInt(Math.floor(r() * 2 ** 32))]).buffer)[0];
    // Integral values reach the engine as ints; the addon refuses anything beyond int64.
    if (Number.isFinite(v) && !Number.isInteger(v)) out.push(v);
  }
  return out.filter((v) => !Number.isInteger(v));
}

describe("llamacpp float printing", () => {
  it("matches the engine's {{ x }} and {{ x|tojson }} on 2000 doubles (ties round to even)", () => {
    const bad: string[] = [];
    for (const x of randomDoubles(2000)) {
      const real = renderRealLlamaCpp("{{ x }}|{{ x|tojson }}", { x });
      const ours = `${llamaFloatString(x)}|${printfGeneral(x, 6)}`;
      if (!("out" in real) || real.out !== ours) bad.push(`${x}: ${JSON.stringify(real)} vs ${ours}`);
    }
    assert.deepEqual(bad.slice(0, 5), []);
  });

  it("spells printf's specials and exact ties", () => {
    assert.equal(printfFixed(0.0078125, 6), "0.007812");
    assert.equal(printfGeneral(123456.5, 6), "123456");
    assert.equal(printfGeneral(1e20, 6), "1e+20");
    assert.equal(printfGeneral(1e-5, 6), "1e-05");
    assert.equal(llamaFloatString(1e20), "100000000000000000000.0");
    assert.equal(llamaFloatString(-0), "-0.0");
    assert.equal(llamaFloatString(Infinity), "inf");
    assert.equal(llamaFloatString(NaN), "-nan");
  });
});

describe("llamacpp string → number (std::stoi / std::stod)", () => {
  const samples = [
    "12",
    " 42",
    "-12",
    "+5",
    "12abc",
    "3.7",
    "0x1A",
    "0x",
    "017",
    "08",
    "3000000000",
    "-2147483648",
    "2147483648",
    "z",
    "",
    " ",
    "1_000",
    "1e3",
    ".5",
    "5.",
    "  -1.5e2x",
    "inf",
    "-INFINITY",
    "nan(1)",
    "0x1p3",
    "1e400",
    "1e-400",
    "1e-310",
    "x",
    // strtol reads all of them, out of range after the tenth
    "9".repeat(5000),
    "-" + "7".repeat(5000) + "x",
    "-2147483649",
    "z".repeat(100),
  ];
  it("int(base) agrees with the engine", () => {
    for (const s of samples) {
      for (const base of [10, 16, 0, 36]) {
        const real = renderRealLlamaCpp(`{{ x|int(-1, ${base}) }}`, { x: s });
        const v = stoi(s, base);
        assert.deepEqual(real, { out: String(v ?? -1) }, `${JSON.stringify(s)} base ${base}`);
      }
    }
  });
  it("float agrees with the engine", () => {
    for (const s of samples) {
      const real = renderRealLlamaCpp("{{ x|float(-1.5) }}", { x: s });
      const v = stod(s);
      const ours = v === null ? "-1.5" : Number.isNaN(v) ? (s.startsWith("-") ? "-nan" : "nan") : llamaFloatString(v);
      assert.deepEqual(real, { out: ours }, JSON.stringify(s));
    }
  });
});
