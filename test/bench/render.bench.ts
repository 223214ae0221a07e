// Renders every corpus template × scenario with our interpreter (jinja2 dialect) and with
// @huggingface/jinja 0.5.13, each parsed once beforehand, and prints the ratio. Target (issue 3):
// ours at least as fast. Two sets: all pairs (a render that throws counts with the time it took
// to throw — @huggingface/jinja throws on more of them, so it does less work there) and the pairs
// both complete, which compares equal work.
import { Template as HfTemplate } from "@huggingface/jinja";
import { readdirSync, readFileSync } from "node:fs";
import { jinja2_3_1_6 } from "../../server/src/dialects/jinja2-3.1.6";
import { TemplateDocument } from "../../server/src/document/document";
import type { PyDict } from "../../server/src/interpreter/dict";
import { render } from "../../server/src/interpreter/render";
import { parseScenarios, scenarioContext } from "../../server/src/analysis/scenario";
import { corpusDir } from "../helpers/corpus";
import { CORPUS_NOW } from "../helpers/renderCorpus";
import type { BenchSuite } from "./bench";
import { fmt } from "./measure";

/**
 * Median CPU time (user + system) per run. CPU time, because wall-clock medians swing by 2-4x on a
 * busy shared machine; in alternating blocks of runs (A×10 B×10 A×10 B×10 …), so drift hits both
 * alike while each mostly pays for its own garbage collection.
 */
function blockedCpuMs(fns: (() => void)[], { blocks = 4, perBlock = 8, warmup = 5 } = {}): number[] {
  for (let i = 0; i < warmup; i++) fns.forEach((f) => f());
  const times = fns.map((): number[] => []);
  for (let b = 0; b < blocks; b++) {
    fns.forEach((f, k) => {
      for (let i = 0; i < perBlock; i++) {
        const t = process.cpuUsage();
        f();
        const d = process.cpuUsage(t);
        times[k].push((d.user + d.system) / 1000);
      }
    });
  }
  return times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]);
}

interface Pair {
  doc: TemplateDocument;
  ours: PyDict;
  hf: HfTemplate;
  hfContext: Record<string, unknown>;
}

function oursRender(p: Pair): boolean {
  return render(p.doc, p.ours, { dialect: jinja2_3_1_6, now: CORPUS_NOW }).error === null;
}

function hfRender(p: Pair): boolean {
  try {
    p.hf.render(p.hfContext);
    return true;
  } catch {
    return false;
  }
}

const suite: BenchSuite = {
  name: "render: corpus templates × scenarios, ours (jinja2 dialect) vs @huggingface/jinja (issue 3 target: ours at least as fast)",
  run() {
    const scenariosText = readFileSync(corpusDir("scenarios.json"), "utf8");
    const scenarios = parseScenarios(scenariosText);
    const plain = JSON.parse(scenariosText) as Record<string, Record<string, unknown>>;
    const pairs: Pair[] = [];
    for (const f of readdirSync(corpusDir("templates"))) {
      const text = readFileSync(corpusDir("templates", f), "utf8");
      const doc = new TemplateDocument(text);
      const hf = new HfTemplate(text);
      for (const s of scenarios) {
        const n = s.name;
        pairs.push({ doc, ours: scenarioContext(s), hf, hfContext: { bos_token: "<|bos|>", eos_token: "<|eos|>", ...plain[n] } });
      }
    }
    const both = pairs.filter((p) => oursRender(p) && hfRender(p));
    const report = (label: string, set: Pair[]) => {
      const [ours, hf] = blockedCpuMs([() => set.forEach(oursRender), () => set.forEach(hfRender)]);
      console.log(`${label}: ${set.length} renders`);
      console.log(`  ours (jinja2)        ${fmt(ours)} ms  (${fmt((ours / set.length) * 1000)} µs each)`);
      console.log(`  @huggingface/jinja   ${fmt(hf)} ms  (${fmt((hf / set.length) * 1000)} µs each)   hf/ours ${(hf / ours).toFixed(2)}x`);
    };
    report(
      `all pairs (ours raise on ${pairs.filter((p) => !oursRender(p)).length}, as Jinja2 does; @huggingface/jinja throws on ${pairs.filter((p) => !hfRender(p)).length})`,
      pairs,
    );
    report("pairs both render", both);
    console.log("(median CPU time per run, in alternating blocks of runs)");
  },
};
export default suite;
