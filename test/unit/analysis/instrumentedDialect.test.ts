// Every analysis render of an engine goes through its dialect wrapped for llama.cpp's value
// statistics (caps/usage.ts); the wrapping must not change a byte of what any dialect renders.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { withUsageStats } from "../../../server/src/analysis/caps/usage";
import { BUILTIN_SCENARIOS, CHECK_NOW } from "../../../server/src/analysis/scenarios";
import { scenarioContext } from "../../../server/src/analysis/scenario";
import { dialectFor, registeredEngines } from "../../../server/src/dialects/index";
import { TemplateDocument } from "../../../server/src/document/document";
import { render } from "../../../server/src/interpreter/render";
import { corpusDir } from "../../helpers/corpus";

const outcome = (r: ReturnType<typeof render>) => (r.error ? { error: r.error.message, start: r.error.start } : { out: r.output });

describe("the dialect wrapped for value statistics renders as the dialect does", () => {
  const files = readdirSync(corpusDir("templates")).sort();
  for (const engine of registeredEngines()) {
    it(`${engine}: every corpus template × scenario`, () => {
      const d = dialectFor(engine)!;
      const w = withUsageStats(d);
      for (const f of files) {
        const doc = new TemplateDocument(readFileSync(corpusDir("templates", f), "utf8"));
        for (const s of BUILTIN_SCENARIOS) {
          const direct = render(doc, scenarioContext(s), { dialect: d, now: CHECK_NOW });
          const wrapped = render(doc, scenarioContext(s), { dialect: w, now: CHECK_NOW });
          assert.deepEqual(outcome(wrapped), outcome(direct), `${f} × ${s.name}`);
        }
      }
    });
  }
});
