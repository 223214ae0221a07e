// fix on real templates: what it rewrites must render the same in real Python Jinja2 on every
// sample scenario; on these templates every minja error has a fix.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { dialectsOf } from "../../../server/src/analysis/engineChecks";
import { fixAll } from "../../../server/src/analysis/fixes/quickFixes";
import builtinScenariosJson from "../../../templates/scenarios.json";
import { BUILTIN_SCENARIOS } from "../../../server/src/analysis/scenarios";
import { TemplateDocument } from "../../../server/src/document/document";
import { DEFAULT_SPECIAL_TOKENS } from "../../../server/src/analysis/scenario";
import { validate } from "../../../server/src/services/diagnostics";
import { DEFAULT_ENGINES } from "../../../server/src/dialects";
import { corpusDir } from "../../helpers/corpus";
import { hasPythonJinja2 } from "../../helpers/python";
import { renderWithPythonJinja2 } from "../../helpers/pythonJinja";

function minjaErrors(text: string): string[] {
  const doc = new TemplateDocument(text);
  return validate(doc)
    .filter((d) => d.engine === "minja" && d.severity === "error")
    .map((d) => `${d.code} at ${text.slice(d.start, d.end)}`);
}

describe("fix on corpus templates", { skip: !hasPythonJinja2() && "python3 with jinja2 is not installed" }, () => {
  for (const name of ["StepFun3.5-Flash", "Spark2.5", "GLM-4.7-Flash"]) {
    it(`${name}: Python Jinja2 renders the fixed template byte for byte as the original, and minja has no error left`, () => {
      const text = readFileSync(corpusDir("templates", `${name}.jinja`), "utf8");
      const { text: fixed, applied } = fixAll(new TemplateDocument(text), dialectsOf(DEFAULT_ENGINES), BUILTIN_SCENARIOS, {
        nullToolsProbe: true,
      });
      assert.ok(applied.length > 0);
      assert.ok(minjaErrors(text).length > 0);
      assert.deepEqual(minjaErrors(fixed), []);
      for (const s of BUILTIN_SCENARIOS) {
        const { results } = renderWithPythonJinja2(
          [text, fixed],
          JSON.stringify({ ...DEFAULT_SPECIAL_TOKENS, ...(builtinScenariosJson as Record<string, object>)[s.name] }),
          [2026, 1, 15, 9, 30],
        );
        assert.deepEqual(results[1], results[0], s.name);
      }
    });
  }
});
