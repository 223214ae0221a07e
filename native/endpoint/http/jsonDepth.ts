// A request body's nesting, checked once, iteratively, right after parsing: everything after (the template
// guard, JSON.stringify for the native side, llama.cpp's chat layer) may recurse over it.
import { MAX_JSON_DEPTH } from "../chat/constraintLimits";
import { badRequest } from "./errors";

/** Throws a 400 naming the top-level field that nests past the limit. */
export function checkJsonDepth(body: unknown, limit = MAX_JSON_DEPTH): void {
  const stack: { value: unknown; depth: number; field: string | null }[] = [{ value: body, depth: 0, field: null }];
  while (stack.length) {
    const { value, depth, field } = stack.pop()!;
    if (typeof value !== "object" || value === null) continue;
    if (depth >= limit) {
      throw badRequest(`arrays and objects nest deeper than ${limit} levels`, field ? [field] : []);
    }
    const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
    // the body's own fields are named; a body that is an array has none
    const named = depth === 0 && !Array.isArray(value);
    for (const [key, child] of entries) stack.push({ value: child, depth: depth + 1, field: named ? String(key) : field });
  }
}
