// Decodes a Jinja2 string literal body exactly as Jinja2 does:
//   normalize_newlines(body).encode("ascii", "backslashreplace").decode("unicode-escape")
// The backslashreplace step matters: in `'\é'` the backslash escapes the first character of
// `\xe9`, so Jinja2 yields the four characters `\xe9`, not `é`.
import { normalizeNewlines } from "./pyText";

export interface EscapeProblem {
  /** Offset within the literal body (before decoding). */
  offset: number;
  length: number;
  message: string;
  /** true when Jinja2 itself rejects it; false when only this implementation cannot resolve it. */
  jinjaRejects: boolean;
}

function backslashReplace(s: string): string {
  if (!NON_ASCII.test(s)) return s;
  let out = "";
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) out += ch;
    else if (cp < 0x100) out += "\\x" + cp.toString(16).padStart(2, "0");
    else if (cp < 0x10000) out += "\\u" + cp.toString(16).padStart(4, "0");
    else out += "\\U" + cp.toString(16).padStart(8, "0");
  }
  return out;
}

const simpleEscapes: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\n": "",
};

const HEX = /^[0-9a-fA-F]+$/;
const NON_ASCII = /[^\0-\x7f]/;

// Names that Python resolves algorithmically; other \N{…} names need the full Unicode name table,
// which is not bundled (about 1 MB) — reported as a problem rather than guessed.
function lookupAlgorithmicName(name: string): number | null {
  const m = /^(?:CJK UNIFIED IDEOGRAPH|CJK COMPATIBILITY IDEOGRAPH|TANGUT IDEOGRAPH|NUSHU CHARACTER)-([0-9A-F]{4,5})$/.exec(
    name.toUpperCase(),
  );
  return m ? parseInt(m[1], 16) : null;
}

/**
 * Returns the decoded value and any problems. Offsets in problems refer to the body as given
 * (the escapes of a literal are all ASCII, so they are stable under backslashreplace, except for
 * the pathological `\` + non-ASCII case, which never produces a problem).
 */
export function decodeStringBody(body: string): { value: string; problems: EscapeProblem[] } {
  const src = backslashReplace(normalizeNewlines(body));
  const problems: EscapeProblem[] = [];
  if (src.indexOf("\\") < 0) return { value: src, problems };
  let out = "";
  let i = 0;
  while (i < src.length) {
    // Copy the run up to the next backslash in one piece.
    const bs = src.indexOf("\\", i);
    if (bs < 0) {
      out += src.slice(i);
      break;
    }
    out += src.slice(i, bs);
    i = bs;
    const next = src[i + 1];
    if (next === undefined) {
      problems.push({ offset: i, length: 1, message: "\\ at end of string", jinjaRejects: true });
      break;
    }
    if (next in simpleEscapes) {
      out += simpleEscapes[next];
      i += 2;
      continue;
    }
    if (next >= "0" && next <= "7") {
      let j = i + 1;
      while (j < src.length && j < i + 4 && src[j] >= "0" && src[j] <= "7") j++;
      out += String.fromCodePoint(parseInt(src.slice(i + 1, j), 8));
      i = j;
      continue;
    }
    const width = next === "x" ? 2 : next === "u" ? 4 : next === "U" ? 8 : 0;
    if (width > 0) {
      const digits = src.slice(i + 2, i + 2 + width);
      if (digits.length < width || !HEX.test(digits)) {
        problems.push({
          offset: i,
          length: 2 + digits.length,
          message: `truncated \\${next}${"X".repeat(width)} escape`,
          jinjaRejects: true,
        });
        out += src.slice(i, i + 2);
        i += 2;
        continue;
      }
      const cp = parseInt(digits, 16);
      if (cp > 0x10ffff) {
        problems.push({ offset: i, length: 2 + width, message: "illegal Unicode character", jinjaRejects: true });
        out += src.slice(i, i + 2 + width);
      } else {
        out += String.fromCodePoint(cp);
      }
      i += 2 + width;
      continue;
    }
    if (next === "N") {
      const close = src[i + 2] === "{" ? src.indexOf("}", i + 3) : -1;
      if (close < 0) {
        problems.push({ offset: i, length: 2, message: "malformed \\N character escape", jinjaRejects: true });
        out += "\\N";
        i += 2;
        continue;
      }
      const name = src.slice(i + 3, close);
      const cp = lookupAlgorithmicName(name);
      if (cp === null) {
        problems.push({
          offset: i,
          length: close + 1 - i,
          message: `\\N{${name}}: named Unicode escapes other than CJK ideographs are not resolved by this checker; the text is kept as written`,
          jinjaRejects: false,
        });
        out += src.slice(i, close + 1);
      } else {
        out += String.fromCodePoint(cp);
      }
      i = close + 1;
      continue;
    }
    // Python keeps unknown escapes as written.
    out += "\\" + next;
    i += 2;
  }
  return { value: out, problems };
}
