// How big a value is, for the output limit (Limits.output), which bounds every string and list a
// render builds, not only what it prints. `sizeOf` is what a value holds now (characters of a
// string, items of a list, tuple or dict); `printedSize` is a lower bound on the length of its
// printed form (repr, JSON), found without printing it: a list that holds itself twice, doubled
// forty times, is forty small objects but prints 2^40 items.
import { DictView, PyDict } from "./dict";
import { Markup, Namespace, PyObject, Tuple, type Value } from "./values";

/** A dialect's own value class that holds text or items says how many (see llamacpp's strings). */
export interface Sized {
  readonly limitSize: number;
}

function isSized(v: PyObject): v is PyObject & Sized {
  return typeof (v as Partial<Sized>).limitSize === "number";
}

/** Characters of a string, items of a list, tuple, dict or namespace; 0 for scalars. */
export function sizeOf(v: Value): number {
  if (typeof v === "string") return v.length;
  if (Array.isArray(v)) return v.length;
  if (v === null || typeof v !== "object") return 0;
  if (v instanceof Tuple) return v.items.length;
  if (v instanceof PyDict) return v.size;
  if (v instanceof Markup) return v.s.length;
  if (v instanceof Namespace) return v.attrs.size;
  return isSized(v) ? v.limitSize : 0;
}

function children(v: Value): Iterable<Value> | null {
  if (Array.isArray(v)) return v;
  if (v instanceof Tuple) return v.items;
  if (v instanceof PyDict) return flatEntries(v.entries());
  if (v instanceof Namespace) return v.attrs.values();
  if (v instanceof DictView) return v;
  return null;
}

function* flatEntries(entries: Iterable<[Value, Value]>): Iterable<Value> {
  for (const [k, x] of entries) {
    yield k;
    yield x;
  }
}

/**
 * At least how many characters `v` prints as, in any engine's style (repr, JSON, JS's join): each
 * string its length, one separator between items, `perItem` more per item (an indentation). Shared
 * parts are measured once and counted at every place they print; a value that contains itself
 * prints `[...]` there in Python, and counts 1. Stops counting once past `cap`.
 */
export function printedSize(v: Value, cap: number, perItem = 0): number {
  const memo = new Map<object, number>();
  const open = new Set<object>();
  const measure = (x: Value): number => {
    const items = children(x);
    if (items === null) return sizeOf(x);
    const key = x as object;
    const known = memo.get(key);
    if (known !== undefined) return known;
    if (open.has(key)) return 1;
    open.add(key);
    let n = -1;
    for (const item of items) {
      n += 1 + perItem + measure(item);
      if (n > cap) break;
    }
    n = Math.max(1, n);
    open.delete(key);
    memo.set(key, n);
    return n;
  };
  return measure(v);
}

/** Whether printing `v` can be costly: a container, whose printed size `printedSize` bounds. */
export function isContainer(v: Value): boolean {
  return Array.isArray(v) || v instanceof Tuple || v instanceof PyDict || v instanceof Namespace || v instanceof DictView;
}
