// The decimal digits of a double's exact binary value, rounded half to even at the last digit kept:
// what glibc's printf and CPython's float formatting both print. JS's toFixed and toExponential round
// exact ties up (0.0078125 to six places is 0.007813 in JS, 0.007812 in C and Python), so the digits are
// computed exactly with BigInt here. Finite values only: each caller spells inf and nan its own way.

/** |x| = mant · 2^exp. */
function decompose(x: number): { mant: bigint; exp: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  return biased === 0 ? { mant: fraction, exp: -1074 } : { mant: fraction | (1n << 52n), exp: biased - 1075 };
}

/** round-half-even(|x| · 10^k), exactly. */
function scaledRound(x: number, k: number): bigint {
  const { mant, exp } = decompose(x);
  let num = mant * (exp >= 0 ? 1n << BigInt(exp) : 1n) * (k >= 0 ? 10n ** BigInt(k) : 1n);
  const den = (exp < 0 ? 1n << BigInt(-exp) : 1n) * (k < 0 ? 10n ** BigInt(-k) : 1n);
  const q = num / den;
  num -= q * den;
  return 2n * num > den || (2n * num === den && (q & 1n) === 1n) ? q + 1n : q;
}

/** `-` for a negative x and for -0, which printf and Python both sign. */
export function signOf(x: number): string {
  return x < 0 || Object.is(x, -0) ? "-" : "";
}

/** printf("%.{precision}f", x) */
export function fixedPoint(x: number, precision: number): string {
  const digits = scaledRound(x, precision)
    .toString()
    .padStart(precision + 1, "0");
  const int = digits.slice(0, digits.length - precision);
  return signOf(x) + (precision > 0 ? `${int}.${digits.slice(-precision)}` : int);
}

/** |x| rounded to `n` significant digits: the `n` digits, and the decimal exponent of the first after rounding. */
export function significant(x: number, n: number): { digits: string; e10: number } {
  if (x === 0) return { digits: "0".repeat(n), e10: 0 };
  // log10 only estimates the exponent; the rounded digits' count corrects it.
  let e10 = Math.floor(Math.log10(Math.abs(x)));
  let digits = scaledRound(x, n - 1 - e10);
  const limit = 10n ** BigInt(n);
  if (digits >= limit) {
    e10 += 1;
    digits = scaledRound(x, n - 1 - e10);
  } else if (digits < limit / 10n) {
    e10 -= 1;
    digits = scaledRound(x, n - 1 - e10);
  }
  return { digits: digits.toString(), e10 };
}
