// The engine checks that run on every (debounced) keystroke, and what the code lens and `fix` cost.
// A "cold" check is a text not seen before (each run appends a fresh comment), so nothing is cached.
import { readdirSync, readFileSync } from "node:fs";
import { TemplateDocument } from "../../server/src/document/document";
import { getCapabilitySummary } from "../../server/src/services/capabilities";
import { validate } from "../../server/src/services/diagnostics";
import { dialectsOf } from "../../server/src/analysis/engineChecks";
import { fixAll } from "../../server/src/analysis/fixes/quickFixes";
import { BUILTIN_SCENARIOS } from "../../server/src/analysis/scenarios";
import { staticFindings } from "../../server/src/analysis/staticChecks";
import { dialectFor } from "../../server/src/dialects/index";
import { DEFAULT_ENGINES } from "../../server/src/dialects";
import { corpusDir } from "../helpers/corpus";
import { fixture } from "../helpers/cli";
import type { BenchSuite } from "./bench";
import { fmt, medianMs } from "./measure";

let n = 0;
const fresh = (text: string) => new TemplateDocument(`${text}{# ${n++} #}`);

const suite: BenchSuite = {
  name: "engine checks (jinja2, llamacpp, minja; 12 scenarios, llama.cpp's probe incl. tools=[null])",
  run() {
    const dir = corpusDir("templates");
    const texts = readdirSync(dir).map((f) => ({ f, text: readFileSync(`${dir}/${f}`, "utf8") }));
    const largest = texts.reduce((a, b) => (b.text.length > a.text.length ? b : a));
    const statics = dialectsOf(DEFAULT_ENGINES).filter((d) => d.engine !== "jinja2");
    const jinja2 = dialectFor("jinja2")!;
    console.log(`largest template: ${largest.f} (${(largest.text.length / 1024).toFixed(1)} KB)`);
    console.log(`  full check, cold                 ${fmt(medianMs(() => validate(fresh(largest.text)), { runs: 15, warmup: 3 }))} ms`);
    console.log(`  full check, same text again      ${fmt(medianMs(() => validate(new TemplateDocument(largest.text))))} ms`);
    console.log(
      `  static rules only                ${fmt(medianMs(() => statics.forEach((d) => staticFindings(fresh(largest.text), jinja2, d))))} ms`,
    );
    console.log(
      `  code lens (caps + tool format)   ${fmt(medianMs(() => getCapabilitySummary(fresh(largest.text)), { runs: 15, warmup: 3 }))} ms`,
    );
    console.log(`whole corpus: ${texts.length} templates`);
    console.log(
      `  full check, cold                 ${fmt(medianMs(() => texts.forEach((t) => validate(fresh(t.text))), { runs: 3, warmup: 1 }))} ms`,
    );
    const glm = readFileSync(fixture("glm-style.jinja"), "utf8");
    console.log(
      `fix of the GLM-style fixture       ${fmt(medianMs(() => fixAll(fresh(glm), dialectsOf(DEFAULT_ENGINES), BUILTIN_SCENARIOS, { nullToolsProbe: true }), { runs: 5, warmup: 1 }))} ms`,
    );
  },
};
export default suite;
