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
  let n = 0n;
  const big = BigInt(base);
  for (const ch of s.replace(/_/g, "")) {
    const d = DIGITS.indexOf(ch);
    if (d < 0 || d >= base) return null;
    n = n * big + BigInt(d);
  }
  return neg ? -n : n;
}

const FLOAT = /^[+-]?(?:(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:e[+-]?\d(?:_?\d)*)?|inf(?:inity)?|nan)$/i;

export function parsePyFloat(text: string): number | null {
  const s = strip(text);
  if (!FLOAT.test(s)) return null;
  const t = s.toLowerCase().replace(/_/g, "");
  if (t.endsWith("nan")) return NaN;
  if (t.endsWith("inf") || t.endsWith("infinity")) return t.startsWith("-") ? -Infinity : Infinity;
  return Number(t);
}
