// Parse + diagnostics of the corpus templates, against @huggingface/jinja's parse of the same text.
import { Template as HfTemplate } from "@huggingface/jinja";
import { readdirSync, readFileSync } from "node:fs";
import { TemplateDocument } from "../../server/src/document/document";
import { validate } from "../../server/src/services/diagnostics";
import { corpusDir } from "../helpers/corpus";
import type { BenchSuite } from "./bench";
import { fmt, medianMs } from "./measure";

const suite: BenchSuite = {
  name: "parse + diagnostics (issue 2 targets: largest <= 2 ms, corpus <= 100 ms, faster than @huggingface/jinja)",
  run() {
    const dir = corpusDir("templates");
    const texts = readdirSync(dir).map((f) => ({ f, text: readFileSync(`${dir}/${f}`, "utf8") }));
    const largest = texts.reduce((a, b) => (b.text.length > a.text.length ? b : a));
    // Syntax diagnostics only (no engines): the engine checks have their own suite, check.bench.ts.
    const ours = (t: string) => validate(new TemplateDocument(t), { engines: [] });
    const hf = (t: string) => new HfTemplate(t);
    const oursLargest = medianMs(() => ours(largest.text));
    const oursAll = medianMs(() => texts.forEach((t) => ours(t.text)), { runs: 15 });
    const hfLargest = medianMs(() => hf(largest.text));
    const hfAll = medianMs(() => texts.forEach((t) => hf(t.text)), { runs: 15 });
    console.log(`largest template: ${largest.f} (${(largest.text.length / 1024).toFixed(1)} KB)`);
    console.log(`  ours parse+diagnostics   ${fmt(oursLargest)} ms`);
    console.log(`  @huggingface/jinja parse ${fmt(hfLargest)} ms   (ratio hf/ours ${(hfLargest / oursLargest).toFixed(2)}x)`);
    console.log(`whole corpus: ${texts.length} templates`);
    console.log(`  ours parse+diagnostics   ${fmt(oursAll)} ms`);
    console.log(`  @huggingface/jinja parse ${fmt(hfAll)} ms   (ratio hf/ours ${(hfAll / oursAll).toFixed(2)}x)`);
  },
};
export default suite;
