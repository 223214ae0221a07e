// How glibc prints a double, which is how llama.cpp's engine prints floats: `std::to_string` is
// printf("%f") and `std::ostream << double` is printf("%g") with precision 6. glibc rounds the exact
// binary value half-to-even ({{ 0.0078125 }} prints 0.007812), which JS's toFixed/toPrecision do not
// (they round ties up), so the digits are computed exactly with BigInt here.

/** |x| = mant · 2^exp for a finite, non-zero double. */
function decompose(x: number): { mant: bigint; exp: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  return biased === 0 ? { mant: fraction, exp: -1074 } : { mant: fraction | (1n << 52n), exp: biased - 1075 };
}

/** round-half-even(|x| · 10^k), exactly. */
function scaledRound(mant: bigint, exp: number, k: number): bigint {
  let num = mant * (exp >= 0 ? 1n << BigInt(exp) : 1n) * (k >= 0 ? 10n ** BigInt(k) : 1n);
  const den = (exp < 0 ? 1n << BigInt(-exp) : 1n) * (k < 0 ? 10n ** BigInt(-k) : 1n);
  const q = num / den;
  num -= q * den;
  return 2n * num > den || (2n * num === den && (q & 1n) === 1n) ? q + 1n : q;
}

function sign(x: number): string {
  return x < 0 || Object.is(x, -0) ? "-" : "";
}

/**
 * glibc's spelling of inf and nan. x86 arithmetic yields the negative "default NaN" (0/0, fmod(x, 0),
 * inf - inf), which glibc prints "-nan" — measured: {{ 0/0 }} renders -nan. JS does not keep a NaN's
 * sign bit, so every NaN is taken to be that one.
 */
function nonFinite(x: number): string {
  return Number.isNaN(x) ? "-nan" : x > 0 ? "inf" : "-inf";
}

/** printf("%.{precision}f", x) */
export function printfFixed(x: number, precision: number): string {
  if (!Number.isFinite(x)) return nonFinite(x);
  if (x === 0) return sign(x) + (precision > 0 ? "0." + "0".repeat(precision) : "0");
  const { mant, exp } = decompose(x);
  const digits = scaledRound(mant, exp, precision).toString().padStart(precision + 1, "0");
  const int = digits.slice(0, digits.length - precision);
  return sign(x) + (precision > 0 ? `${int}.${digits.slice(-precision)}` : int);
}

/** printf("%.{precision}g", x): `precision` significant digits, trailing zeros removed. */
export function printfGeneral(x: number, precision: number): string {
  if (!Number.isFinite(x)) return nonFinite(x);
  if (x === 0) return sign(x) + "0";
  const { mant, exp } = decompose(x);
  // The decimal exponent after rounding to `precision` digits decides fixed vs exponent layout.
  let e10 = Math.floor(Math.log10(Math.abs(x)));
  let digits = scaledRound(mant, exp, precision - 1 - e10);
  const limit = 10n ** BigInt(precision);
  if (digits >= limit) {
    e10 += 1;
    digits = scaledRound(mant, exp, precision - 1 - e10);
  } else if (digits < limit / 10n) {
    e10 -= 1;
    digits = scaledRound(mant, exp, precision - 1 - e10);
  }
  const s = digits.toString();
  if (e10 < -4 || e10 >= precision) {
    const frac = s.slice(1).replace(/0+$/, "");
    const e = Math.abs(e10).toString().padStart(2, "0");
    return `${sign(x)}${s[0]}${frac ? "." + frac : ""}e${e10 < 0 ? "-" : "+"}${e}`;
  }
  const point = e10 + 1;
  const int = point > 0 ? s.slice(0, point) : "0";
  const frac = (point > 0 ? s.slice(point) : "0".repeat(-point) + s).replace(/0+$/, "");
  return sign(x) + int + (frac ? "." + frac : "");
}

/** std::to_string(x) with the trailing zeros cut and one kept after the point: value_float_t::as_string. */
export function llamaFloatString(x: number): string {
  const out = printfFixed(x, 6).replace(/0+$/, "");
  return out.endsWith(".") ? out + "0" : out;
}
