// Float and int layout shared by `%` formatting and str.format: Python's 'f', 'e', 'g' and the
// integer bases. Float digits are the exact binary value's, rounded half to even (decimalDigits.ts).
import { fixedPoint, significant, signOf } from "../decimalDigits";
import { floatRepr } from "./floatRepr";

/**
 * Digits stop at 100 places after the point, where Python goes on (trailing zeros once the exact
 * value's digits run out): a template's precision must not make us build an unbounded string.
 */
const MAX_PRECISION = 100;

export function fixed(x: number, precision: number): string {
  if (!Number.isFinite(x)) return nonFinite(x);
  return fixedPoint(x, Math.min(precision, MAX_PRECISION));
}

export function exponent(x: number, precision: number): string {
  if (!Number.isFinite(x)) return nonFinite(x);
  const p = Math.min(precision, MAX_PRECISION);
  const { digits, e10 } = significant(x, p + 1);
  const mantissa = p > 0 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${signOf(x)}${mantissa}e${e10 < 0 ? "-" : "+"}${String(Math.abs(e10)).padStart(2, "0")}`;
}

/** Python's 'g': significant digits, fixed or exponent by Python's rule, trailing zeros cut. */
export function general(x: number, precision: number, keepZeros = false): string {
  if (!Number.isFinite(x)) return nonFinite(x);
  const p = precision === 0 ? 1 : precision;
  if (x === 0) return (Object.is(x, -0) ? "-0" : "0") + (keepZeros && p > 1 ? "." + "0".repeat(p - 1) : "");
  // Where the digits go past the cap, the exponent after rounding is the one at the cap: a double's
  // digits never run to a hundred nines.
  const exp = significant(x, Math.min(p, MAX_PRECISION + 1)).e10;
  const s = exp >= -4 && exp < p ? fixed(x, p - 1 - exp) : exponent(x, p - 1);
  return keepZeros ? s : stripZeros(s);
}

function stripZeros(s: string): string {
  const [m, e] = s.split("e");
  if (!m.includes(".")) return s;
  const t = m.replace(/0+$/, "").replace(/\.$/, "");
  return e === undefined ? t : `${t}e${e}`;
}

/** str.format's spec-less float ('' type): repr, except that precision turns it into 'g'-like. */
export function noTypeFloat(x: number, precision: number | null): string {
  if (precision === null) return floatRepr(x);
  const s = general(x, precision);
  return /[.e]|inf|nan/.test(s) ? s : s + ".0";
}

function nonFinite(x: number): string {
  return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
}

export function intDigits(v: bigint, base: 2 | 8 | 10 | 16): string {
  return (v < 0n ? -v : v).toString(base);
}
