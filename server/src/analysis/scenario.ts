// Scenarios: sample conversations a template is rendered with (templates/scenarios.json, the corpus's
// scenarios.json, a user's scenario file). This is the one loader and the one `Scenario` type; the engine
// checks, the CLI, the template tests and the preview all read scenarios through it. A scenario keeps
// its context as read (JSON as Python's json.loads reads it: 1 int, 1.0 float) and hands every render a
// copy of its own: llama.cpp's and minja's lists are mutable (`messages.append(…)` works there), so a
// shared context could leak one render into the next.
import { parseJson, PyDict, Tuple, type Value } from "../interpreter";

export interface Scenario {
  readonly name: string;
  /** The scenario's own keys, as read; never handed to a render (see `scenarioContext`). */
  readonly data: PyDict;
}

/** The bos/eos texts the corpus renders were made with, for scenarios that do not set them. */
export const DEFAULT_SPECIAL_TOKENS: Readonly<Record<string, string>> = { bos_token: "<|bos|>", eos_token: "<|eos|>" };

/** A scenarios file: a JSON object of name → context, in file order. Throws JsonError or a TypeError. */
export function parseScenarios(text: string): Scenario[] {
  const v = parseJson(text);
  if (!(v instanceof PyDict) || [...v.values()].some((s) => !(s instanceof PyDict))) {
    throw new TypeError("a scenarios file is a JSON object of name → object");
  }
  return [...v.entries()].map(([name, data]) => ({ name: String(name), data: data as PyDict }));
}

/** One scenario file: the context object itself. Throws JsonError, or a TypeError that says what is wrong. */
export function parseScenario(name: string, text: string): Scenario {
  const v = parseJson(text);
  if (!(v instanceof PyDict)) throw new TypeError("a scenario file is one JSON object (the template context)");
  if (v.has("messages") && !Array.isArray(v.get("messages"))) throw new TypeError("'messages' must be a list");
  return { name, data: v };
}

/** A fresh context for one render: a copy of the scenario's keys, plus the bos/eos tokens it does not set. */
export function scenarioContext(s: Scenario): PyDict {
  const ctx = copy(s.data) as PyDict;
  for (const [k, v] of Object.entries(DEFAULT_SPECIAL_TOKENS)) if (!ctx.has(k)) ctx.set(k, v);
  return ctx;
}

/** A deep copy of JSON-read data (dicts, lists, tuples and immutable scalars). */
function copy(v: Value): Value {
  if (Array.isArray(v)) return v.map(copy);
  if (v instanceof PyDict) return PyDict.from([...v.entries()].map(([k, x]) => [k, copy(x)]));
  if (v instanceof Tuple) return new Tuple(v.items.map(copy), v.fields, v.typeName);
  return v;
}
