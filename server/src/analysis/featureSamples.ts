// Tiny templates that exercise one Jinja2 feature the way the template being checked uses it (its
// own literal arguments, inputs of every shape). The static rules render them in the reference and
// in each engine's dialect (once per dialect, see sampleRender.ts) instead of keeping a list of
// what each engine lacks: the answer comes from the dialect, which the conformance tests hold to
// the real engine.
import type { Dialect } from "../interpreter";
import { sampleRender } from "./sampleRender";
import { operand, type Use } from "./valueUses";

/** What the engine does with a sample that works in the reference. */
export type Verdict =
  { effect: "throws"; message: string; sample: string } | { effect: "differs"; engineOut: string; referenceOut: string; sample: string };

/** A sample, optionally spelled differently for the reference (see filterSamples). */
export type Sample = string | { reference: string; engine: string };

const forReference = (s: Sample): string => (typeof s === "string" ? s : s.reference);
const forEngine = (s: Sample): string => (typeof s === "string" ? s : s.engine);

export function verdict(reference: Dialect, engine: Dialect, s: Sample): Verdict | null {
  const ref = sampleRender(reference, forReference(s));
  const sample = forEngine(s);
  if ("error" in ref) return null;
  const eng = sampleRender(engine, sample);
  if ("error" in eng) return { effect: "throws", message: eng.error.split("\n")[0], sample };
  return eng.out === ref.out ? null : { effect: "differs", engineOut: eng.out, referenceOut: ref.out, sample };
}

/**
 * "throws" when every sample the reference renders throws in the engine. Engines such as llama.cpp
 * look builtins up by the input's type, so a feature only counts as missing when no input of a
 * shape the reference accepts gets through.
 */
export function throwsForEveryShape(reference: Dialect, engine: Dialect, samples: readonly Sample[]): Verdict | null {
  let found: Verdict | null = null;
  for (const sample of samples) {
    if ("error" in sampleRender(reference, forReference(sample))) continue;
    const v = verdict(reference, engine, sample);
    if (v?.effect !== "throws") return null;
    found ??= v;
  }
  return found;
}

/** Inputs of a filter or receivers of a method, one of each shape chat templates handle. */
export const INPUT_SHAPES: readonly string[] = ["'a b'", "['a', 'b']", "{'a': 'b'}", "[{'a': 'b'}]", "1", "none"];

/**
 * `input | name(args)` for each input shape. Jinja2's filters may return a lazy generator that only
 * fails when iterated (`1 | unique`), so the reference's spelling iterates the result.
 */
export function filterSamples(name: string, args: string): Sample[] {
  const call = args ? `${name}(${args})` : name;
  return INPUT_SHAPES.map((i) => ({
    reference: `{% set r = ${i} | ${call} %}{% if r is iterable %}{% set r = r | list %}{% endif %}`,
    engine: `{% set r = ${i} | ${call} %}`,
  }));
}

/** Right operands of an operator whose meaning depends on its operands' types (`'%s' % x`). */
export const RIGHT_SHAPES: readonly string[] = ["'x'", "2", "('x',)", "('x', 'y')", "['x']"];

/** `body` inside a loop over a short list, once per item. */
export function loopSample(body: string): string {
  return `{% for x in [1, 1, 2] %}${body},{% endfor %}`;
}

/**
 * A template expression that consumes `expr` the way a use of it does (valueUses.ts): printing
 * only where the template converts it to text, so a value the template only tests is not judged
 * on how the engine prints it.
 */
export function useSample(use: Use): string {
  switch (use.kind) {
    case "text":
      return use.sample;
    case "truth":
      return `{{ 'T' if ${operand(use.expr)} else 'F' }}`;
    case "value":
      // What static sampling can tell about a value without printing it: whether the engine has it.
      return `{{ 'D' if ${operand(use.expr)} is defined else 'U' }}`;
    case "escapes":
      return `{{ ${use.expr} }}`;
  }
}
