// The built-in sample conversations (templates/scenarios.json, bundled) that the engine checks render a
// template with, and the instant and budget of those renders. Scenarios are read and copied per render
// by the interpreter's scenario loader.
import builtin from "../../../templates/scenarios.json";
import { fromJS, type PyDict, type WallClock } from "../interpreter";
import { type Scenario } from "./scenario";

export const BUILTIN_SCENARIOS: readonly Scenario[] = Object.entries(builtin as Record<string, Record<string, unknown>>).map(
  ([name, data]) => ({
    name,
    data: fromJS(data) as PyDict,
  }),
);

/** Every check renders at this instant, so `strftime_now` never makes engines look different. */
export const CHECK_NOW: WallClock = { year: 2026, month: 1, day: 15, hour: 9, minute: 30, second: 0, microsecond: 0 };

/**
 * The step budget of a check's render: about fifty renders run per keystroke, so a runaway loop must
 * stop early. Ten times what the most expensive corpus template × scenario needs.
 */
export const CHECK_LIMITS = { steps: 200_000 };
