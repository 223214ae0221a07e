// What an engine does differently from Jinja2, in words: each fact names a construct, whether the engine
// throws there or renders other bytes, the cause as a user should read it, and a sample template that
// shows it (each engine's facts test renders every sample). Hover and completion show the facts of a
// filter, test or method on it (services/describe.ts); the diagnostics find the differences by rendering
// (analysis/) and word a missing filter, test or global with its fact (analysis/staticChecks.ts). The
// samples keep the words true.
export interface EngineFact {
  kind: "syntax" | "filter" | "test" | "method" | "global" | "value" | "statement";
  /** The filter, test, method or global name; for syntax/value/statement a short label. */
  name: string;
  effect: "throws" | "differs";
  cause: string;
  sample: { template: string; context?: Record<string, unknown> };
}

export function fact(
  kind: EngineFact["kind"],
  name: string,
  effect: EngineFact["effect"],
  cause: string,
  template: string,
  context?: Record<string, unknown>,
): EngineFact {
  return { kind, name, effect, cause, sample: context ? { template, context } : { template } };
}
