// std::stoi and std::stod as glibc implements them (strtol / strtod on the longest valid prefix), which
// is how llama.cpp's `int` and `float` filters read strings (value.cpp, value_string_t builtins).
// Both return null where the C++ function throws (no digits, or out of range): the filter then falls
// back to its default. Measured: "12abc"|int → 12, " 42"|int → 42, "3000000000"|int → 0 (stoi is
// 32-bit), "0x1A"|float → 26.0, "1e400"|float → 0.0 and "1e-310"|float → 0.0 (ERANGE).

const C_SPACE = /^[ \t\n\v\f\r]*/;

function digitValue(c: string): number {
  const d = parseInt(c, 36);
  return Number.isNaN(d) ? 99 : d;
}

/** std::stoi(s, nullptr, base); base is 0 (auto: 0x… hex, 0… octal) or 2…36. */
export function stoi(s: string, base: number): number | null {
  let p = C_SPACE.exec(s)![0].length;
  let negative = false;
  if (s[p] === "+" || s[p] === "-") negative = s[p++] === "-";
  const hexPrefix = s[p] === "0" && (s[p + 1] === "x" || s[p + 1] === "X") && digitValue(s[p + 2] ?? "") < 16;
  if ((base === 0 || base === 16) && hexPrefix) {
    p += 2;
    base = 16;
  } else if (base === 0) {
    base = s[p] === "0" ? 8 : 10;
  }
  // strtol reads every digit but stops growing the value once it is out of range (ERANGE), so a million
  // digits cost a million steps, not a million-digit multiplication each.
  let value = 0;
  let outOfRange = false;
  const start = p;
  for (; p < s.length && digitValue(s[p]) < base; p++) {
    if (outOfRange) continue;
    value = value * base + digitValue(s[p]);
    outOfRange = value > 2147483648;
  }
  if (p === start) return null;
  if (negative) value = -value;
  return outOfRange || value > 2147483647 ? null : value;
}

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/;
const HEX = /^([+-]?)0[xX]((?:[\da-fA-F]+\.?[\da-fA-F]*|\.[\da-fA-F]+))(?:[pP]([+-]?\d+))?/;
const SPECIAL = /^([+-]?)(inf(?:inity)?|nan(?:\([\da-zA-Z_]*\))?)/i;

/** std::stod(s): strtod's prefix, but ERANGE (overflow, underflow, subnormal) throws. */
export function stod(s: string): number | null {
  const rest = s.slice(C_SPACE.exec(s)![0].length);
  const special = SPECIAL.exec(rest);
  if (special) return special[2].toLowerCase().startsWith("inf") ? (special[1] === "-" ? -Infinity : Infinity) : NaN;
  const hex = HEX.exec(rest);
  const value = hex ? hexFloat(hex[1], hex[2], hex[3]) : DECIMAL.test(rest) ? Number(DECIMAL.exec(rest)![0]) : null;
  if (value === null) return null;
  const inRange =
    Number.isFinite(value) &&
    (value === 0 ? !hasNonZeroDigit(hex ? hex[2] : DECIMAL.exec(rest)![0]) : Math.abs(value) >= 2.2250738585072014e-308);
  return inRange ? value : null;
}

function hasNonZeroDigit(mantissa: string): boolean {
  return /[1-9a-fA-F]/.test(mantissa.split(/[eEpP]/)[0]);
}

function hexFloat(sign: string, digits: string, exponent: string | undefined): number {
  const [int, frac = ""] = digits.split(".");
  const mantissa = parseInt(int + frac || "0", 16);
  const value = mantissa * 2 ** (Number(exponent ?? 0) - 4 * frac.length);
  return sign === "-" ? -value : value;
}
