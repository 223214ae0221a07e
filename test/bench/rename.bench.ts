// Rename over the corpus: every macro, parameter, variable, loop variable and namespace attribute of every template
// renamed to a fresh name (`<name>_2`), each proven by rendering the template before and after in every engine and
// built-in scenario. Prints how many were accepted, refused before rendering and refused by the proof, and the time.
import { readdirSync, readFileSync } from "node:fs";
import { TemplateDocument } from "../../server/src/document/document";
import { rename } from "../../server/src/services/rename";
import { scopesOf } from "../../server/src/services/scope";
import { corpusDir } from "../helpers/corpus";
import type { BenchSuite } from "./bench";
import { fmt } from "./measure";

const suite: BenchSuite = {
  name: "rename over the corpus (every symbol to a fresh name; 6 engines × 14 scenarios before and after)",
  run() {
    const dir = corpusDir("templates");
    const tally = { symbols: 0, accepted: 0, refused: 0, proof: 0 };
    const proofRefusals: string[] = [];
    const times: number[] = [];
    for (const f of readdirSync(dir).filter((x) => x.endsWith(".jinja"))) {
      const text = readFileSync(`${dir}/${f}`, "utf8");
      const info = scopesOf(new TemplateDocument(text).template);
      const starts = new Map<string, number>();
      for (const b of info.bindings) if (!starts.has(`${b.kind} ${b.name}`)) starts.set(`${b.kind} ${b.name}`, b.nameSpan.start);
      for (const a of info.attributes)
        if (!starts.has(`attr ${a.object}.${a.attr}`)) starts.set(`attr ${a.object}.${a.attr}`, a.attrSpan.start);
      for (const [what, offset] of starts) {
        // a fresh document each time: nothing of the last rename's renders is reused
        const doc = new TemplateDocument(text);
        const name = doc.text.slice(offset).match(/^\w+/)![0];
        const t0 = performance.now();
        const r = rename(doc, offset, `${name}_2`);
        times.push(performance.now() - t0);
        tally.symbols++;
        if ("edits" in r) tally.accepted++;
        else if (r.refused.startsWith("Renaming")) {
          tally.proof++;
          proofRefusals.push(`${f} ${what}: ${r.refused}`);
        } else tally.refused++;
      }
    }
    times.sort((a, b) => a - b);
    console.log(
      `symbols ${tally.symbols}: accepted ${tally.accepted}, refused before rendering ${tally.refused}, refused by the proof ${tally.proof}`,
    );
    console.log(`  per rename: median ${fmt(times[times.length >> 1])} ms, slowest ${fmt(times[times.length - 1])} ms`);
    for (const p of proofRefusals) console.log(`  ${p}`);
  },
};
export default suite;
