// Python's numeric tower as templates see it: bool ⊂ int (bigint) ⊂ float (number).
import type { Value } from "../values";

export type PyNumber = boolean | bigint | number;

export function isNumber(v: Value): v is PyNumber {
  const t = typeof v;
  return t === "bigint" || t === "number" || t === "boolean";
}

/** int or bool (Python's `isinstance(v, int)`). */
export function isInt(v: Value): v is boolean | bigint {
  return typeof v === "bigint" || typeof v === "boolean";
}

export function toBig(v: boolean | bigint): bigint {
  return typeof v === "bigint" ? v : v ? 1n : 0n;
}

export function toFloat(v: PyNumber): number {
  return typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : v ? 1 : 0;
}

/** Python's int / int: the exact quotient rounded once to the nearest float. */
export function intTrueDiv(a: bigint, b: bigint): number {
  const x = Number(a);
  const y = Number(b);
  if (Number.isSafeInteger(x) && Number.isSafeInteger(y)) return x / y;
  const neg = a < 0n !== b < 0n;
  const p = a < 0n ? -a : a;
  const q = b < 0n ? -b : b;
  // Scale so the integer quotient has ≥ 66 bits, keep a sticky bit for the remainder, and let
  // BigInt → Number do the single rounding; dividing by 2^k afterwards is exact.
  const k = Math.max(0, 66 - (p.toString(2).length - q.toString(2).length));
  let quot = (p << BigInt(k)) / q;
  if ((p << BigInt(k)) % q !== 0n) quot |= 1n;
  const r = Number(quot) / 2 ** k;
  return neg ? -r : r;
}

/** Python's floor division and modulo on ints (BigInt truncates towards zero). */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

export function pyMod(a: bigint, b: bigint): bigint {
  const r = a % b;
  return r !== 0n && r < 0n !== b < 0n ? r + b : r;
}

export function floatMod(a: number, b: number): number {
  const r = a % b;
  if (r !== 0 && r < 0 !== b < 0) return r + b;
  return r === 0 ? (b < 0 ? -0 : 0) : r;
}

/** Exact comparison of two Python numbers (bigints beyond 2^53 against floats included). */
export function numCompare(a: PyNumber, b: PyNumber): number {
  if (typeof a === "number" || typeof b === "number") {
    const x = toFloat(a);
    const y = toFloat(b);
    if (typeof a === "bigint" && Number.isFinite(y) && !Number.isSafeInteger(Number(a))) return bigVsFloat(a, y);
    if (typeof b === "bigint" && Number.isFinite(x) && !Number.isSafeInteger(Number(b))) return -bigVsFloat(b, x);
    return x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN;
  }
  const x = toBig(a);
  const y = toBig(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function bigVsFloat(a: bigint, y: number): number {
  const fl = BigInt(Math.floor(y));
  if (a !== fl) return a < fl ? -1 : 1;
  return y > Math.floor(y) ? -1 : 0;
}
