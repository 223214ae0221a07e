// Random templates from the grammar, rendered by our llamacpp dialect and by llama.cpp's engine
// itself (node-llama-cpp's addon, in process): the same bytes, or an error on both sides in the
// engine's own words. Two generators: Jinja2's whole grammar (most of it fails to compile or throws
// in llama.cpp, which must happen identically), and one drawing on what llama.cpp has, so that most
// templates render. DIFF_SEED / DIFF_COUNT explore further
// (`DIFF_COUNT=20000 node test/run.mjs llamacpp/differential`).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { llamacpp_0_5_0 } from "../../../../server/src/dialects/llamacpp-v0.5.0";
import { TemplateDocument } from "../../../../server/src/document/document";
import type { PyDict } from "../../../../server/src/interpreter/dict";
import { parseJson } from "../../../../server/src/interpreter/json";
import { render } from "../../../../server/src/interpreter/render";
import { llamaCppErrorCause, renderRealLlamaCpp } from "../../../helpers/realLlamaCpp";
import { ALL_FEATURES, GEN_CONTEXT_JSON, generateTemplates, type GenOptions } from "../../../helpers/templateGen";

const SEED = Number(process.env.DIFF_SEED ?? 1);
const COUNT = Number(process.env.DIFF_COUNT ?? 1500);

// The addon refuses a number beyond int64 for the whole render (values.test.ts); without `big` the
// rest of the context is what every case runs on.
const CONTEXT_JSON = GEN_CONTEXT_JSON.replace(/, "big": \d+/, "");

// strftime_now reads the engine's real clock, which nothing can pin.
const everything: Omit<GenOptions, "seed"> = { features: ALL_FEATURES.filter((f) => f !== "strftime") };
const llamaLeaning: Omit<GenOptions, "seed"> = {
  features: ALL_FEATURES.filter((f) => !["strftime", "with", "power", "floorDiv", "tuples", "bigInts"].includes(f)),
  plusSigns: false,
  testArgsInParens: true,
  exponentFloats: false,
  filters: [
    "default",
    "length",
    "count",
    "first",
    "last",
    "join",
    "map",
    "select",
    "selectattr",
    "reject",
    "rejectattr",
    "sort",
    "reverse",
    "min",
    "max",
    "list",
    "string",
    "safe",
    "tojson",
    "trim",
    "upper",
    "lower",
    "title",
    "capitalize",
    "replace",
    "indent",
    "int",
    "float",
    "abs",
    "items",
    "dictsort",
    "slice",
    "e",
  ],
  tests: [
    "defined",
    "undefined",
    "none",
    "string",
    "mapping",
    "iterable",
    "sequence",
    "number",
    "integer",
    "float",
    "boolean",
    "true",
    "false",
    "odd",
    "even",
    "in",
    "eq",
    "ne",
    "lt",
    "gt",
    "ge",
    "callable",
    "lower",
    "upper",
    "test",
  ],
  methods: [
    "upper",
    "lower",
    "strip",
    "lstrip",
    "rstrip",
    "split",
    "rsplit",
    "startswith",
    "endswith",
    "replace",
    "title",
    "capitalize",
    "format",
    "items",
    "keys",
    "values",
    "get",
  ],
};

function compare(options: Omit<GenOptions, "seed">, seed: number): { failures: string[]; rendered: number } {
  const js = JSON.parse(CONTEXT_JSON) as Record<string, unknown>;
  const context = parseJson(CONTEXT_JSON) as PyDict;
  const failures: string[] = [];
  let rendered = 0;
  for (const { template } of generateTemplates(COUNT, { seed, ...options })) {
    const real = renderRealLlamaCpp(template, js);
    const r = render(new TemplateDocument(template), context, { dialect: llamacpp_0_5_0 });
    const ours = r.error ? { error: r.error.message } : { out: r.output };
    const want = "out" in real ? real : { error: llamaCppErrorCause(real.error) };
    if ("out" in real) rendered++;
    if (JSON.stringify(ours) !== JSON.stringify(want))
      failures.push(`${JSON.stringify(template)}\n   llama.cpp: ${JSON.stringify(want)}\n   ours:      ${JSON.stringify(ours)}`);
  }
  return { failures, rendered };
}

describe("llamacpp dialect vs llama.cpp's engine on generated templates", () => {
  it(`${COUNT} templates of Jinja2's grammar from seed ${SEED}: same bytes or same error`, () => {
    const { failures, rendered } = compare(everything, SEED);
    assert.ok(rendered > COUNT * 0.1, `some render (${rendered})`);
    assert.deepEqual(failures.slice(0, 10), [], `${failures.length} of ${COUNT} differ from llama.cpp`);
  });
  it(`${COUNT} templates of what llama.cpp has from seed ${SEED}: same bytes or same error`, () => {
    const { failures, rendered } = compare(llamaLeaning, SEED + 1);
    assert.ok(rendered > COUNT * 0.5, `most render (${rendered})`);
    assert.deepEqual(failures.slice(0, 10), [], `${failures.length} of ${COUNT} differ from llama.cpp`);
  });
});
