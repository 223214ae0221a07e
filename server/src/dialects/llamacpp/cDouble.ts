// How glibc prints a double, which is how llama.cpp's engine prints floats: `std::to_string` is
// printf("%f") and `std::ostream << double` is printf("%g") with precision 6. glibc rounds the exact
// binary value half-to-even ({{ 0.0078125 }} prints 0.007812), as Python does (decimalDigits.ts).
import { fixedPoint, significant, signOf } from "../../interpreter/kit";

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
  return Number.isFinite(x) ? fixedPoint(x, precision) : nonFinite(x);
}

/** printf("%.{precision}g", x): `precision` significant digits, trailing zeros removed. */
export function printfGeneral(x: number, precision: number): string {
  if (!Number.isFinite(x)) return nonFinite(x);
  if (x === 0) return signOf(x) + "0";
  // The decimal exponent after rounding to `precision` digits decides fixed vs exponent layout.
  const { digits: s, e10 } = significant(x, precision);
  if (e10 < -4 || e10 >= precision) {
    const frac = s.slice(1).replace(/0+$/, "");
    const e = Math.abs(e10).toString().padStart(2, "0");
    return `${signOf(x)}${s[0]}${frac ? "." + frac : ""}e${e10 < 0 ? "-" : "+"}${e}`;
  }
  const point = e10 + 1;
  const int = point > 0 ? s.slice(0, point) : "0";
  const frac = (point > 0 ? s.slice(point) : "0".repeat(-point) + s).replace(/0+$/, "");
  return signOf(x) + int + (frac ? "." + frac : "");
}

/** std::to_string(x) with the trailing zeros cut and one kept after the point: value_float_t::as_string. */
export function llamaFloatString(x: number): string {
  const out = printfFixed(x, 6).replace(/0+$/, "");
  return out.endsWith(".") ? out + "0" : out;
}
