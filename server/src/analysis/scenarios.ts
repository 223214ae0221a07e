// The built-in sample conversations (templates/scenarios.json) that the engine checks render a
// template with. Each render gets a fresh context: llama.cpp's and minja's lists are mutable
// (`messages.append(…)` works there), so a shared context could leak one render into the next.
import builtin from "../../../templates/scenarios.json";
import type { PyDict } from "../interpreter/dict";
import { fromJS } from "../interpreter/json";
import type { WallClock } from "../interpreter/runtime";
import { DEFAULT_SPECIAL_TOKENS } from "../interpreter/scenario";

export interface Scenario {
  name: string;
  /** The scenario's keys as JSON-shaped data (strings, booleans, lists, objects). */
  data: Readonly<Record<string, unknown>>;
}

export const BUILTIN_SCENARIOS: readonly Scenario[] = Object.entries(builtin as Record<string, Record<string, unknown>>).map(([name, data]) => ({
  name,
  data,
}));

/** A new template context for one render: the scenario plus the bos/eos tokens it does not set. */
export function scenarioContext(s: Scenario): PyDict {
  return fromJS({ ...DEFAULT_SPECIAL_TOKENS, ...s.data }) as PyDict;
}

/** Every check renders at this instant, so `strftime_now` never makes engines look different. */
export const CHECK_NOW: WallClock = { year: 2026, month: 1, day: 15, hour: 9, minute: 30, second: 0, microsecond: 0 };

/**
 * The step budget of a check's render: about fifty renders run per keystroke, so a runaway loop must
 * stop early. Ten times what the most expensive corpus template × scenario needs.
 */
export const CHECK_LIMITS = { steps: 200_000 };
