// value.cpp's `slice<T>` (its "Python-like" slicing, with its own clamping: a stop of -1 with a
// negative step means "before the start", so [1,2,3,4][3:-1:-1] is all four items) and the `slice`
// builtin behind `x[a:b:c]`, whose argument count branches are off by one: only the three-argument
// form that member access passes works (`x|slice(2)` fails with "Undefined is not an int value").
import type { Value } from "../../interpreter/kit";
import type { LArgs } from "./args";
import { asInt, fault, undef } from "./values";

export function sliceIndices(len: number, start: bigint, stop: bigint, step: bigint): number[] {
  const n = BigInt(len);
  const dir = step > 0n ? 1n : step < 0n ? -1n : 0n;
  const max = (x: bigint, y: bigint) => (x > y ? x : y);
  const min = (x: bigint, y: bigint) => (x < y ? x : y);
  let first: bigint;
  let last: bigint;
  if (dir >= 0n) {
    first = start < 0n ? max(n + start, 0n) : min(start, n);
    last = stop < 0n ? max(n + stop, 0n) : min(stop, n);
  } else {
    first = start < 0n ? max(n + start, 0n) : min(start, n - 1n);
    last = stop < -1n ? max(n + stop, -1n) : min(stop, n - 1n);
  }
  const out: number[] = [];
  if (dir === 0n) return out;
  for (let i = first; dir * i < dir * last; i += step) if (i >= 0n && i < n) out.push(Number(i));
  return out;
}

/** The start/stop/step of the `slice` builtin, read with its argument-count branches. */
export function sliceArgs(a: LArgs): [bigint, bigint, bigint] {
  const arg0 = a.pos(1);
  const arg1 = a.posOr(2, undef());
  const arg2 = a.posOr(3, undef());
  let r: [bigint, bigint, bigint];
  if (a.count === 1) r = [0n, asInt(arg0), 1n];
  else if (a.count === 2) r = [asInt(arg0), asInt(arg1), 1n];
  else r = [asInt(arg0), asInt(arg1), asInt(arg2 as Value)];
  if (r[2] === 0n) throw fault("slice step cannot be zero", "runtime/value");
  return r;
}
