// What a dialect does with a tiny template of its own, asked once per (dialect, sample) and kept:
// the engine checks learn how an engine prints None or whether it has `loop.cycle` by running the
// dialect itself, so a new dialect needs no table of its differences here.
import { type Dialect, render } from "../interpreter";
import { TemplateDocument } from "../document";
import { CHECK_LIMITS, CHECK_NOW } from "./scenarios";

export type SampleResult = { out: string } | { error: string };

const answers = new Map<Dialect, Map<string, SampleResult>>();

/** Renders `source` (with `v` bound to the JSON value `value`, when given) in `dialect`. */
export function sampleRender(dialect: Dialect, source: string, value?: unknown): SampleResult {
  let byDialect = answers.get(dialect);
  if (!byDialect) answers.set(dialect, (byDialect = new Map()));
  const key = value === undefined ? source : `${source}\u0000${JSON.stringify(value)}`;
  let r = byDialect.get(key);
  if (!r) {
    const res = render(new TemplateDocument(source), value === undefined ? {} : { v: value }, {
      dialect,
      now: CHECK_NOW,
      limits: CHECK_LIMITS,
    });
    r = res.error ? { error: res.error.message } : { out: res.output };
    byDialect.set(key, r);
  }
  return r;
}

/** How `{{ v }}` prints a JSON value in the dialect ("" when it throws). */
export function printed(dialect: Dialect, value: unknown): string {
  const r = sampleRender(dialect, "{{ v }}", value);
  return "out" in r ? r.out : "";
}
