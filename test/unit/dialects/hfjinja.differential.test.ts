// The hfjinja dialect against the real @huggingface/jinja 0.5.13, run in process on the same input:
// every corpus template × scenario, and generated templates from fixed seeds. Where the engine
// renders, the bytes must match; where it throws, we must raise too. A case our dialect declares
// not reproduced (runtime/not-reproduced: the engine does something we do not model) is counted
// and printed, never silently passed as a match.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { hfjinja_0_5_13 } from "../../../server/src/dialects/hfjinja-0.5.13";
import { TemplateDocument } from "../../../server/src/document/document";
import type { PyDict } from "../../../server/src/interpreter/dict";
import { parseJson } from "../../../server/src/interpreter/json";
import { render } from "../../../server/src/interpreter/render";
import { corpusDir } from "../../helpers/corpus";
import { renderRealHfJinja, type EngineResult } from "../../helpers/realHfJinja";
import { ALL_FEATURES, generateTemplates, GEN_CONTEXT_JSON, type GenOptions } from "../../helpers/templateGen";
import { CORPUS_NOW } from "../../helpers/renderCorpus";

const NOW = CORPUS_NOW;

function ours(doc: TemplateDocument, contextJson: string): { out: string } | { error: string; code: string } {
  const r = render(doc, parseJson(contextJson) as PyDict, { dialect: hfjinja_0_5_13, now: NOW });
  return r.error ? { error: r.error.message, code: r.error.code } : { out: r.output };
}

/** The constructs, filters, tests and methods @huggingface/jinja has (the generator's defaults are Jinja2's). */
const FRIENDLY: Omit<GenOptions, "seed"> = {
  // `with` is not a statement there, and `+` signs and `1e16` are syntax errors: they would only test one error.
  features: ALL_FEATURES.filter((f) => f !== "with"),
  plusSigns: false,
  exponentFloats: false,
  filters: [
    "safe",
    "tojson",
    "list",
    "first",
    "last",
    "length",
    "reverse",
    "sort",
    "join",
    "string",
    "unique",
    "upper",
    "lower",
    "title",
    "capitalize",
    "trim",
    "indent",
    "int",
    "float",
    "abs",
    "items",
    "default",
    "selectattr",
    "rejectattr",
    "map",
    "replace",
    "dictsort",
  ],
  tests: [
    "boolean",
    "callable",
    "odd",
    "even",
    "false",
    "true",
    "none",
    "string",
    "number",
    "integer",
    "iterable",
    "mapping",
    "sequence",
    "lower",
    "upper",
    "defined",
    "undefined",
  ],
  methods: [
    "upper",
    "lower",
    "strip",
    "lstrip",
    "rstrip",
    "split",
    "startswith",
    "endswith",
    "replace",
    "title",
    "capitalize",
    "items",
    "keys",
    "values",
    "get",
  ],
};

function compare(template: string, real: EngineResult, mine: ReturnType<typeof ours>, notReproduced: string[]): void {
  if ("code" in mine && mine.code === "runtime/not-reproduced") {
    notReproduced.push(`${JSON.stringify(template)}: ${mine.error}`);
    return;
  }
  if ("out" in real) assert.deepEqual(mine, { out: real.out }, template);
  else assert.ok("error" in mine, `the engine throws ${real.error}; we rendered ${JSON.stringify(mine)} from ${JSON.stringify(template)}`);
}

describe("hfjinja dialect vs @huggingface/jinja: every corpus template × scenario", () => {
  const scenarios = JSON.parse(readFileSync(corpusDir("scenarios.json"), "utf8")) as Record<string, object>;
  for (const file of readdirSync(corpusDir("templates")).sort()) {
    const source = readFileSync(corpusDir("templates", file), "utf8");
    const doc = new TemplateDocument(source);
    for (const [name, scenario] of Object.entries(scenarios)) {
      it(`${file} × ${name}`, () => {
        const context = { bos_token: "<|bos|>", eos_token: "<|eos|>", ...scenario };
        const real = renderRealHfJinja(source, context, { now: NOW });
        const mine = ours(doc, JSON.stringify(context));
        // The corpus must match exactly, error messages included.
        if ("error" in real) assert.deepEqual("error" in mine ? mine.error : mine, real.error);
        else assert.deepEqual(mine, real);
      });
    }
  }
});

describe("hfjinja dialect vs @huggingface/jinja: generated templates", () => {
  const context = JSON.parse(GEN_CONTEXT_JSON) as Record<string, unknown>;
  const runs: [string, GenOptions, number][] = [
    ["its own features, filters, tests and methods", { seed: 7, ...FRIENDLY }, 1200],
    ["everything Jinja2 has (mostly its errors)", { seed: 8 }, 400],
  ];
  for (const [title, options, count] of runs) {
    it(`${count} templates from seed ${options.seed}: ${title}`, () => {
      const notReproduced: string[] = [];
      let rendered = 0;
      for (const { template } of generateTemplates(count, options)) {
        const real = renderRealHfJinja(template, context, { now: NOW });
        if ("out" in real) rendered++;
        compare(template, real, ours(new TemplateDocument(template), GEN_CONTEXT_JSON), notReproduced);
      }
      if (notReproduced.length) console.log(`not reproduced (${notReproduced.length}):\n  ${notReproduced.join("\n  ")}`);
      // Enough of them must render for the comparison to be about bytes, not only about errors.
      assert.ok(rendered >= count * 0.15, `only ${rendered} of ${count} rendered`);
      assert.ok(notReproduced.length <= count * 0.01, `${notReproduced.length} not reproduced`);
    });
  }
});
