// Python's notion of whitespace and newlines, which Jinja2's lexer uses (`\s`, str.rstrip,
// universal newlines). JavaScript's `\s` differs (it has U+FEFF, lacks U+001C–U+001F and U+0085).

export function isPyWhitespace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    (code >= 0x1c && code <= 0x20) ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Jinja2 splits lines on `\r\n`, `\r` and `\n` only (since 3.0). */
export function isNewlineChar(code: number): boolean {
  return code === 0x0a || code === 0x0d;
}

/** Length of the newline starting at `pos` (2 for `\r\n`), or 0. */
export function newlineLength(s: string, pos: number): number {
  const c = s.charCodeAt(pos);
  if (c === 0x0d) return s.charCodeAt(pos + 1) === 0x0a ? 2 : 1;
  return c === 0x0a ? 1 : 0;
}

export function normalizeNewlines(s: string): string {
  return s.indexOf("\r") < 0 ? s : s.replace(/\r\n?/g, "\n");
}
