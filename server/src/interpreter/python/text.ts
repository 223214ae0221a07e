// Python str semantics on JS strings. Python indexes strings by code point, JS by UTF-16 unit; the
// two agree unless the string holds astral characters (emoji …), so every helper takes the fast
// path when it has none.
import { Fault } from "../errors";

export function hasAstral(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) return true;
  }
  return false;
}

/** The code points of `s` as strings (lone surrogates stay single units, as Python keeps them). */
export function codePoints(s: string): string[] {
  return hasAstral(s) ? Array.from(s) : s.split("");
}

export function pyLen(s: string): number {
  if (!hasAstral(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** Python's str.isspace() / the default separator set of split() and strip(). */
export function isPySpace(ch: string): boolean {
  const c = ch.charCodeAt(0);
  return (
    (c >= 0x09 && c <= 0x0d) ||
    (c >= 0x1c && c <= 0x20) ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** Compares by code point, as Python does (JS `<` compares UTF-16 units, which differs past U+FFFF). */
export function compareStr(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      // A surrogate (an astral character) sorts above every BMP unit from U+E000 up.
      if (x >= 0xd800 && x <= 0xdfff) x += 0x2000;
      else if (x >= 0xe000) x -= 0x800;
      if (y >= 0xd800 && y <= 0xdfff) y += 0x2000;
      else if (y >= 0xe000) y -= 0x800;
      return x < y ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python's repr() of a str: quote choice, backslash escapes, non-printables as \x/\u/\U. */
export function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || c === 0x7f) out += "\\x" + hex(c, 2);
    else if (c < 0x7f) out += ch;
    else if (ch !== " " && NON_PRINTABLE.test(ch))
      out += c <= 0xff ? "\\x" + hex(c, 2) : c <= 0xffff ? "\\u" + hex(c, 4) : "\\U" + hex(c, 8);
    else out += ch;
  }
  return out + quote;
}

function hex(c: number, width: number): string {
  return c.toString(16).padStart(width, "0");
}

/** Python's chr() for `%c` and `{:c}`: a code point, or OverflowError past U+10FFFF. */
export function charCode(n: bigint): number {
  if (n < 0n || n >= 0x110000n) throw new Fault("runtime/overflow", "OverflowError", "%c arg not in range(0x110000)");
  return Number(n);
}
