// The memory limit of a render (Limits.memory, what it may add to the heap): the output limit bounds each
// string and list, this bounds them all together. A loop that keeps hundreds of distinct 16 Mi-character
// strings, each within the output limit, would take the process past V8's heap limit, where V8 aborts it (a
// fatal error, not an exception that could be caught). The heap is measured, not the values: V8 shares and
// flattens strings in ways a count of characters cannot see. The heap is the whole process's (or worker's), so
// the limit counts from what it held when the render started: a language server holding many documents is not
// held to less. A measurement takes a few microseconds; the evaluator takes one every so many steps and every
// so many characters or items built (see Evaluator.checkpoint).
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Bytes V8 holds in this isolate's heap now, garbage included (a worker thread measures its own). */
function heapUsed(): number {
  return getHeapStatistics().used_heap_size;
}

let gc: (() => void) | undefined;

/**
 * A full collection. Node has no API for one without --expose-gc; the flag set at run time exposes `gc` to
 * contexts created after it, so a process started without the flag (the editor's, the CLI's) gets one too.
 */
function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as () => void;
  }
  gc();
}

/** Bytes the heap holds now, garbage included: where a render's memory limit counts from. */
export function heapBase(): number {
  return heapUsed();
}

/**
 * Whether the heap holds more than `base + limit` bytes of live values, or more than half of what V8 lets it grow
 * to (--max-old-space-size, a worker's resourceLimits): the other half is room for the value being built when the
 * limit is found crossed (up to 16 Mi items), and for garbage. Measured, and where over, measured again after a
 * full collection: garbage V8 has not collected yet (a loop's discarded strings) does not count against a render.
 */
export function heapOver(base: number, limit: number): boolean {
  const most = Math.min(base + limit, getHeapStatistics().heap_size_limit / 2);
  if (heapUsed() <= most) return false;
  collectGarbage();
  return heapUsed() > most;
}
