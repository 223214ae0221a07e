// The llama.cpp checks measured against reality: the (template, scenario) pairs the checker flags for
// llama.cpp against the pairs where Jinja2 3.1.2 and llama.cpp's engine really differ in the corpus
// (output bytes with dates masked — llama.cpp rendered with the real clock —, or one of them throwing).
// Built-in scenarios the corpus was not made with are rendered here by the real engines themselves:
// the installed Python jinja2 and llama.cpp's engine through node-llama-cpp's addon.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { engineFindings } from "../../../server/src/analysis/engineChecks";
import builtinScenariosJson from "../../../templates/scenarios.json";
import { BUILTIN_SCENARIOS } from "../../../server/src/analysis/scenarios";
import { dialectFor } from "../../../server/src/dialects/index";
import { TemplateDocument } from "../../../server/src/document/document";
import { DEFAULT_SPECIAL_TOKENS } from "../../../server/src/analysis/scenario";
import { corpusDir } from "../../helpers/corpus";
import { hasPythonJinja2 } from "../../helpers/python";
import { renderWithPythonJinja2 } from "../../helpers/pythonJinja";
import { renderRealLlamaCpp } from "../../helpers/realLlamaCpp";

const llamacpp = dialectFor("llamacpp")!;
const MONTHS = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*";
const DATE = new RegExp(`\\d{4}-\\d{2}-\\d{2}|\\d{1,2} ${MONTHS} \\d{4}|${MONTHS} \\d{1,2},? \\d{4}`, "g");

type Outcome = { out: string } | { error: true };
const CORPUS_SCENARIOS = new Set(Object.keys(JSON.parse(readFileSync(corpusDir("scenarios.json"), "utf8"))));
const TEMPLATES = readdirSync(corpusDir("templates"))
  .sort()
  .map((f) => f.replace(/\.jinja$/, ""));
/** Renders of the scenarios the corpus lacks, by engine, template and scenario. */
const live = new Map<string, Outcome>();

function renderLive(): void {
  for (const s of BUILTIN_SCENARIOS) {
    if (CORPUS_SCENARIOS.has(s.name)) continue;
    const context = { ...(builtinScenariosJson as Record<string, object>)[s.name], ...DEFAULT_SPECIAL_TOKENS };
    const sources = TEMPLATES.map((t) => readFileSync(corpusDir("templates", t + ".jinja"), "utf8"));
    const py = renderWithPythonJinja2(sources, JSON.stringify(context), [2026, 1, 15, 9, 30, 0]).results;
    TEMPLATES.forEach((t, i) => {
      const j = py[i];
      live.set(`jinja2/${t}/${s.name}`, "out" in j ? { out: j.out.replace(DATE, "<date>") } : { error: true });
      const l = renderRealLlamaCpp(sources[i], structuredClone(context));
      live.set(`llamacpp/${t}/${s.name}`, "out" in l ? { out: l.out.replace(DATE, "<date>") } : { error: true });
    });
  }
}

function outcome(engine: string, template: string, scenario: string): Outcome {
  if (!CORPUS_SCENARIOS.has(scenario)) return live.get(`${engine}/${template}/${scenario}`)!;
  const base = corpusDir("expected", engine, template, scenario);
  return existsSync(base + ".out") ? { out: readFileSync(base + ".out", "utf8").replace(DATE, "<date>") } : { error: true };
}

function reallyDiffer(template: string, scenario: string): boolean {
  const a = outcome("jinja2", template, scenario);
  const b = outcome("llamacpp", template, scenario);
  return "out" in a && "out" in b ? a.out !== b.out : "out" in a || "out" in b;
}

describe("llama.cpp findings against the real engines' renders of the corpus", () => {
  it(
    "flags the pairs that differ with precision and recall of at least 0.95",
    { skip: !hasPythonJinja2() && "python3 has no jinja2" },
    () => {
      renderLive();
      let tp = 0;
      let fp = 0;
      let fn = 0;
      const misses: string[] = [];
      for (const f of readdirSync(corpusDir("templates")).sort()) {
        const template = f.replace(/\.jinja$/, "");
        const doc = new TemplateDocument(readFileSync(corpusDir("templates", f), "utf8"));
        const findings = engineFindings(doc, [llamacpp], BUILTIN_SCENARIOS, { nullToolsProbe: false });
        // A refusal to compile holds for every input; the other findings name their scenarios.
        const everywhere = findings.some((x) => x.code === "llamacpp/unsupported-syntax");
        const flagged = new Set(findings.flatMap((x) => x.scenarios));
        for (const s of BUILTIN_SCENARIOS) {
          const isFlagged = everywhere || flagged.has(s.name);
          const differs = reallyDiffer(template, s.name);
          if (isFlagged && differs) tp++;
          else if (isFlagged) {
            fp++;
            misses.push(`false positive: ${template} × ${s.name}`);
          } else if (differs) {
            fn++;
            misses.push(`missed: ${template} × ${s.name}`);
          }
        }
      }
      const precision = tp / (tp + fp);
      const recall = tp / (tp + fn);
      console.log(
        `llama.cpp findings vs the real engines: ${tp} pairs flagged and differing, ${fp} flagged only, ${fn} missed; precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}`,
      );
      assert.ok(tp > 20, "the corpus has differing pairs to find");
      assert.ok(precision >= 0.95 && recall >= 0.95, misses.join("\n"));
    },
  );
});
