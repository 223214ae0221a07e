// Float and int layout shared by `%` formatting and str.format: Python's 'f', 'e', 'g' and the
// integer bases, including exact digits for floats beyond 1e21 (where JS switches to exponents).
import { floatRepr } from "./floatRepr";

export function fixed(x: number, precision: number): string {
  if (!Number.isFinite(x)) return nonFinite(x);
  if (Math.abs(x) >= 1e21) {
    const int = BigInt(x).toString();
    return precision > 0 ? `${int}.${"0".repeat(precision)}` : int;
  }
  const s = x.toFixed(Math.min(precision, 100));
  return Object.is(x, -0) ? "-" + s : s;
}

export function exponent(x: number, precision: number): string {
  if (!Number.isFinite(x)) return nonFinite(x);
  const [m, e] = x.toExponential(Math.min(precision, 100)).split("e");
  const n = Number(e);
  const sign = Object.is(x, -0) ? "-" : "";
  return `${sign}${m}e${n < 0 ? "-" : "+"}${String(Math.abs(n)).padStart(2, "0")}`;
}

/** Python's 'g': significant digits, fixed or exponent by Python's rule, trailing zeros cut. */
export function general(x: number, precision: number, keepZeros = false): string {
  if (!Number.isFinite(x)) return nonFinite(x);
  const p = precision === 0 ? 1 : precision;
  if (x === 0) return (Object.is(x, -0) ? "-0" : "0") + (keepZeros && p > 1 ? "." + "0".repeat(p - 1) : "");
  const exp = Number(x.toExponential(p - 1).split("e")[1]);
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
