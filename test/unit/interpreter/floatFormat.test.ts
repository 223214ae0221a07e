// Float formatting in `%` and str.format: the digits of the exact binary value rounded half to even, as
// Python prints them — exact ties (0.0078125 to six places) included, where JS's toFixed rounds up.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hasPythonJinja2 } from "../../helpers/python";
import { renderWithPythonJinja2 } from "../../helpers/pythonJinja";
import { rng } from "../../helpers/random";
import { run } from "./renderHelper";

const SPECS = [
  "'%.{p}f' % x",
  "'%.{p}e' % x",
  "'%.{p}g' % x",
  "'{:.{p}f}'.format(x)",
  "'{:.{p}e}'.format(x)",
  "'{:.{p}g}'.format(x)",
  "'{:.{p}%}'.format(x)",
  "'%10.{p}f' % x",
];

/** Values with a precision each: exact ties (an odd multiple of 2^-j has j decimal places, the last a 5), and random doubles. */
function samples(): [number, number][] {
  const r = rng(7);
  const out: [number, number][] = [];
  for (let j = 1; j <= 20; j++) {
    for (const m of [1, 3, 5, 7, 125, 999, 4097])
      out.push([m / 2 ** j, j - 1], [-m / 2 ** j, j - 1], [(m / 2 ** j) * 1000, Math.max(0, j - 4)], [m / 2 ** j, (j + 5) % 21]);
  }
  for (let i = 0; i < 100; i++) out.push([(r() - 0.5) * 10 ** Math.floor(r() * 30 - 15), Math.floor(r() * 21)]);
  return out.filter(([x]) => !Number.isInteger(x));
}

function render(template: string, x: number): string {
  const r = run(template, JSON.stringify({ x }));
  return r.error ? `error: ${r.error.message}` : r.output;
}

describe("float formatting rounds the exact binary value half to even, as Python does", () => {
  const cases: [string, number, string][] = [
    ["{{ '%.6f' % x }}", 0.0078125, "0.007812"],
    ["{{ '{:.6f}'.format(x) }}", 0.0078125, "0.007812"],
    ["{{ '%.0f' % x }}", 2.5, "2"],
    ["{{ '%.1f' % x }}", -0.25, "-0.2"],
    ["{{ '%.2e' % x }}", 1.125, "1.12e+00"],
    ["{{ '{:.0e}'.format(x) }}", 2.5, "2e+00"],
    ["{{ '%.4g' % x }}", 0.0078125, "0.007812"],
    ["{{ '{:,.2f}'.format(x) }}", 1234.125, "1,234.12"],
    // more significant digits than JS's toExponential takes: the exact value, zeros cut
    ["{{ '%.200g' % x }}", 0.1, "0.1000000000000000055511151231257827021181583404541015625"],
  ];
  for (const [template, x, expected] of cases) {
    it(`${template} with x = ${x} → ${expected}`, () => assert.equal(render(template, x), expected));
  }

  it(
    "matches Python on ties and random doubles at precisions 0 to 20",
    { skip: hasPythonJinja2() ? false : "python3 with jinja2 is not installed" },
    () => {
      const xs = samples();
      const context = JSON.stringify({ xs: xs.map(([x]) => x) });
      // One template per sample with every spec: Python's compile, not the render, is what costs.
      const templates = xs.map(
        ([, p], i) => `{% set x = xs[${i}] %}` + SPECS.map((spec) => `{{ ${spec.replace("{p}", String(p))} }}`).join("|"),
      );
      const py = renderWithPythonJinja2(templates, context, [2026, 1, 15, 9, 30, 0]);
      const bad: string[] = [];
      templates.forEach((t, i) => {
        const r = run(t, context);
        const ours = r.error ? { error: r.error.message } : { out: r.output };
        if (JSON.stringify(ours) !== JSON.stringify(py.results[i]))
          bad.push(`${t} with x = ${xs[i][0]}: python ${JSON.stringify(py.results[i])}, ours ${JSON.stringify(ours)}`);
      });
      assert.deepEqual(bad.slice(0, 10), []);
    },
  );
});
