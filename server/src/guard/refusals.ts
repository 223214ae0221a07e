// What the guard makes of how our render of a template ended. It vouches for a render that finished, and for
// one that raised an error our port models as llama.cpp's own (same node, same words, checked against the
// engine on the corpus): llama.cpp stops there too, so nothing it runs is unchecked. Everything else is
// refused before llama.cpp runs the template: a limit (it would hang or crash), a construct our port marks
// as not reproduced (a known crasher such as divisibleby(0), or one whose effect there it does not model, so
// whatever follows it would run unchecked), and a render of ours that failed in any other way.
import type { RenderError } from "../interpreter";
import type { LineIndex } from "../parser";
import type { Refusal } from "./types";

type LimitRefusal = Extract<Refusal, { kind: "limit" }>;

/** Ends a check inside the guard with its refusal. */
export class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
    this.name = "Refused";
  }
}

const LIMIT_NAMES: Record<string, LimitRefusal["limit"]> = {
  "limit/steps": "steps",
  "limit/output": "output",
  "limit/recursion": "recursion",
  "limit/memory": "memory",
};

const rendering = (what: string | null) => (what ? ` (rendering ${what})` : "");

function at(lines: LineIndex, offset: number): [number, number] {
  const p = lines.positionAt(offset);
  return [p.line + 1, p.character + 1];
}

export function limitRefusal(lines: LineIndex, limit: LimitRefusal["limit"], offset: number, why: string, what: string | null): Refusal {
  const [line, column] = at(lines, offset);
  return {
    kind: "limit",
    limit,
    line,
    column,
    message:
      `chat template exceeds the ${limit === "steps" ? "step" : limit} limit at line ${line}, column ${column}: ${why}${rendering(what)}; ` +
      "llama.cpp's Jinja engine has no limits and would hang or crash on it, so it is not run",
  };
}

/** A construct at `offset` the guard cannot vouch for in llama.cpp's engine. */
export function unvouched(lines: LineIndex, offset: number, why: string, what: string | null): Refusal {
  const [line, column] = at(lines, offset);
  return {
    kind: "refused",
    line,
    column,
    message:
      `chat template refused at line ${line}, column ${column}: ${why}${rendering(what)}; ` +
      "the template guard cannot vouch for what llama.cpp's Jinja engine does there, so it is not run",
  };
}

/** A check that failed as a whole (our render threw, the guard ran out of memory): refused, located at the start. */
export function checkFailed(why: string, what: string | null): Refusal {
  return {
    kind: "refused",
    line: 1,
    column: 1,
    message: `chat template refused: the template guard could not check it: ${why}${rendering(what)}; llama.cpp's Jinja engine, which has no limits, does not run what was not checked`,
  };
}

/** The refusal for how a render of ours ended; null when the guard vouches for it. */
export function verdict(lines: LineIndex, e: Pick<RenderError, "code" | "message" | "start"> | null, what: string): Refusal | null {
  if (e === null) return null;
  const limit = LIMIT_NAMES[e.code];
  if (limit) return limitRefusal(lines, limit, e.start, e.message, what);
  if (e.code === "runtime/not-reproduced") return unvouched(lines, e.start, e.message, what);
  return null;
}
