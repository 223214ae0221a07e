// The corpus as render cases: every template × scenario with what Jinja2 (or another engine)
// produced, and the micro cases with their contexts read as Python reads JSON.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { PyDict } from "../../server/src/interpreter/dict";
import { parseJson } from "../../server/src/interpreter/json";
import type { WallClock } from "../../server/src/interpreter/dialect";
import { parseScenarios, scenarioContext } from "../../server/src/analysis/scenario";
import { corpusDir } from "./corpus";

/** The instant the corpus's Jinja2 and minja renders pinned strftime_now to. */
export const CORPUS_NOW: WallClock = { year: 2026, month: 1, day: 15, hour: 9, minute: 30, second: 0, microsecond: 0 };

export interface CorpusCase {
  template: string;
  scenario: string;
  source: string;
  context: PyDict;
  expected: { out: string } | { error: string };
}

export function corpusCases(engine: string): CorpusCase[] {
  const scenarios = parseScenarios(readFileSync(corpusDir("scenarios.json"), "utf8"));
  const out: CorpusCase[] = [];
  for (const f of readdirSync(corpusDir("templates")).sort()) {
    const template = f.replace(/\.jinja$/, "");
    const source = readFileSync(corpusDir("templates", f), "utf8");
    for (const { name: scenario, data } of scenarios) {
      const base = corpusDir("expected", engine, template, scenario);
      const expected = existsSync(base + ".out")
        ? { out: readFileSync(base + ".out", "utf8") }
        : { error: readFileSync(base + ".err", "utf8").replace(/\n$/, "") };
      out.push({ template, scenario, source, context: scenarioContext({ name: scenario, data }), expected });
    }
  }
  return out;
}

export interface MicroCase {
  name: string;
  template: string;
  context: PyDict;
  expected: Record<string, { out: string } | { error: string }>;
}

export function microCases(): MicroCase[] {
  const text = readFileSync(corpusDir("micro-cases.json"), "utf8");
  const plain = JSON.parse(text) as { name: string; template: string }[];
  const typed = parseJson(text) as PyDict[];
  return plain.map((c, i) => ({ ...c, context: typed[i].get("context") as PyDict, expected: c as unknown as MicroCase["expected"] }));
}
