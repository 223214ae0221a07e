// Python's int(str, base) and float(str) parsing (what the `int` and `float` filters call):
// surrounding whitespace, a sign, `_` between digits, base prefixes, inf/nan spellings.
import { isPySpace } from "./text";

function strip(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isPySpace(s[a])) a++;
  while (b > a && isPySpace(s[b - 1])) b--;
  return s.slice(a, b);
}

const DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz";

/**
 * CPython ≥ 3.11 refuses to convert a string of more than 4,300 digits in a base that is not a power of two
 * (sys.int_max_str_digits; a ValueError like any bad literal), since the conversion is quadratic.
 */
export const INT_MAX_STR_DIGITS = 4300;

/** Python's int(text, base), or null where it raises ValueError. Linear in the text's length. */
export function parsePyInt(text: string, base: number): bigint | null {
  let s = strip(text).toLowerCase();
  let neg = false;
  if (s[0] === "+" || s[0] === "-") {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  const prefix = /^0([box])/.exec(s);
  if (prefix) {
    const b = prefix[1] === "b" ? 2 : prefix[1] === "o" ? 8 : 16;
    if (base === 0 || base === b) {
      base = b;
      s = s.slice(2).replace(/^_/, "");
    }
  }
  if (base === 0) base = 10;
  if (base < 2 || base > 36 || s === "" || s.startsWith("_") || s.endsWith("_") || s.includes("__")) return null;
  const digits = s.replace(/_/g, "");
  if (!digitsIn(base).test(digits)) return null;
  const n = binaryBase(digits, base) ?? (digits.length > INT_MAX_STR_DIGITS ? null : positional(digits, base));
  return n === null ? null : neg ? -n : n;
}

/** The digits of `base`, as one character class (a regex runs in linear time over megabytes; a loop of indexOf does not). */
function digitsIn(base: number): RegExp {
  const letters = base > 10 ? `a-${DIGITS[base - 1]}` : "";
  return new RegExp(`^[0-${DIGITS[Math.min(base, 10) - 1]}${letters}]+$`);
}

const LITERAL_PREFIX: Record<number, string> = { 2: "0b", 8: "0o", 16: "0x" };
/** Base 4 and 32 read as hex: a chunk of this many digits is a whole number of hex digits (12 × 2 bits, 8 × 5 bits). */
const CHUNK: Record<number, number> = { 4: 12, 32: 8 };

/** A power-of-two base through a binary, octal or hex literal, which V8 reads in linear time. */
function binaryBase(digits: string, base: number): bigint | null {
  if (LITERAL_PREFIX[base]) return BigInt(LITERAL_PREFIX[base] + digits);
  const k = CHUNK[base];
  if (k === undefined) return null;
  const hexPerChunk = (k * Math.log2(base)) / 4;
  const padded = digits.padStart(Math.ceil(digits.length / k) * k, "0");
  const hex: string[] = [];
  for (let i = 0; i < padded.length; i += k)
    hex.push(
      parseInt(padded.slice(i, i + k), base)
        .toString(16)
        .padStart(hexPerChunk, "0"),
    );
  return BigInt("0x" + hex.join(""));
}

function positional(digits: string, base: number): bigint {
  if (base === 10) return BigInt(digits);
  let n = 0n;
  const big = BigInt(base);
  for (const ch of digits) n = n * big + BigInt(DIGITS.indexOf(ch));
  return n;
}

// Underscores only between two digits; the rest is checked once they are gone (a pattern with `(?:_?\d)*` recurses
// per digit and overflows the stack on a 16 MB string).
const BAD_UNDERSCORE = /(?:^|\D)_|_(?:\D|$)/;
const FLOAT = /^[+-]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?|inf(?:inity)?|nan)$/i;

export function parsePyFloat(text: string): number | null {
  const s = strip(text);
  if (BAD_UNDERSCORE.test(s)) return null;
  const t = s.toLowerCase().replace(/_/g, "");
  if (!FLOAT.test(t)) return null;
  if (t.endsWith("nan")) return NaN;
  if (t.endsWith("inf") || t.endsWith("infinity")) return t.startsWith("-") ? -Infinity : Infinity;
  return Number(t);
}
