// llama.cpp's strings (common/jinja/string.h): std::string bytes, kept as a list of parts. The parts
// are invisible except to `capitalize` and `title`, which transform each part on its own (apply_transform
// in string.cpp): ("hello " ~ "world")|capitalize is "Hello World", ("ab" ~ "cd")|title is "AbCd"
// (measured). A string of one part is a plain JS string; concatenation and repetition keep parts apart.
// Byte semantics (length, indexing, slicing, strip sets) go through UTF-8; a byte range that cuts a
// character decodes to U+FFFD, which is what the addon's UTF-8 → JS conversion makes of it (measured on
// every sub-range of "日本語", "aé日😀" …). Case mapping is ASCII only (::toupper in the C locale).
import { PyObject, type Runtime, type Sized, type Value } from "../../interpreter/kit";

class PartedStr extends PyObject implements Sized {
  /** For the output limit: its characters, or its parts where empty parts outnumber them. */
  readonly limitSize: number;
  constructor(readonly parts: readonly string[]) {
    super();
    this.limitSize = Math.max(
      parts.length,
      parts.reduce((n, p) => n + p.length, 0),
    );
  }
  get typeName(): string {
    return "str";
  }
  private joined: string | undefined;
  /** Joined once: a string of millions of parts is read whole by every filter and print. */
  get value(): string {
    return (this.joined ??= this.parts.join(""));
  }
}

export type LStr = string | PartedStr;

export function isStr(v: Value): v is LStr {
  return typeof v === "string" || v instanceof PartedStr;
}

export function strOf(v: LStr): string {
  return typeof v === "string" ? v : v.value;
}

export function partsOf(v: LStr): readonly string[] {
  return typeof v === "string" ? [v] : v.parts;
}

export function mkStr(parts: readonly string[]): LStr {
  return parts.length === 0 ? "" : parts.length === 1 ? parts[0] : new PartedStr(parts);
}

/** Characters or parts, whichever is more: what `concat` and `repeat` must check before building. */
export function limitSizeOf(v: LStr): number {
  return typeof v === "string" ? v.length : v.limitSize;
}

/** Each part copied is a step: `s ~ s` doubled 24 times is 16 Mi parts, each part of each copy. */
export function concat(a: LStr, b: LStr, rt: Pick<Runtime, "checkSize" | "tick">): LStr {
  rt.checkSize(limitSizeOf(a) + limitSizeOf(b));
  const pa = partsOf(a);
  const pb = partsOf(b);
  rt.tick(pa.length + pb.length);
  return mkStr(pa.concat(pb));
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const ASCII = /^[\x00-\x7f]*$/;

export function isAscii(s: string): boolean {
  return ASCII.test(s);
}

export function utf8(s: string): Uint8Array {
  return encoder.encode(s);
}

export function fromUtf8(b: Uint8Array): string {
  return decoder.decode(b);
}

export function byteLength(s: string): number {
  return isAscii(s) ? s.length : utf8(s).length;
}

/** The byte at `i` as a one-byte string (a lone non-ASCII byte decodes to U+FFFD). */
export function byteAt(s: string, i: number): string {
  return isAscii(s) ? s[i] : fromUtf8(utf8(s).subarray(i, i + 1));
}

function mapParts(v: LStr, f: (part: string) => string): LStr {
  return mkStr(partsOf(v).map(f));
}

const upper = (s: string) => s.replace(/[a-z]+/g, (m) => m.toUpperCase());
const lower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

export const uppercase = (v: LStr) => mapParts(v, upper);
export const lowercase = (v: LStr) => mapParts(v, lower);

/** string::capitalize: the first byte of each part upper-cased, the rest lower-cased. */
export const capitalize = (v: LStr) => mapParts(v, (s) => (s === "" ? s : upper(s[0]) + lower(s.slice(1))));

/** string::titlecase: upper after C isspace, lower elsewhere, restarting at every part. */
export const titlecase = (v: LStr) => mapParts(v, (s) => s.replace(/[^ \t\n\v\f\r]+/g, (w) => upper(w[0]) + lower(w.slice(1))));

export const C_SPACE = " \t\n\v\f\r";

/** string::strip: C isspace by default, else any byte of `chars`; parts emptied at the edges drop out. */
export function strip(v: LStr, left: boolean, right: boolean, chars?: string): LStr {
  const set = new Set<number>(chars === undefined ? Array.from(C_SPACE, (c) => c.charCodeAt(0)) : utf8(chars));
  const one = (s: string, l: boolean, r: boolean): string => {
    const b = isAscii(s) ? null : utf8(s);
    const at = (k: number) => (b ? b[k] : s.charCodeAt(k));
    let i = 0;
    let j = b ? b.length : s.length;
    if (l) while (i < j && set.has(at(i))) i++;
    if (r) while (j > i && set.has(at(j - 1))) j--;
    return b ? fromUtf8(b.subarray(i, j)) : s.slice(i, j);
  };
  const parts = [...partsOf(v)];
  if (left) while (parts.length > 0 && (parts[0] = one(parts[0], true, false)) === "") parts.shift();
  if (right) while (parts.length > 0 && (parts[parts.length - 1] = one(parts[parts.length - 1], false, true)) === "") parts.pop();
  return parts.length === 0 ? "" : mkStr(parts);
}

/** string_part::is_lowercase / is_uppercase over the whole string (ASCII). */
export const isLower = (v: LStr) => !/[A-Z]/.test(strOf(v));
export const isUpper = (v: LStr) => !/[a-z]/.test(strOf(v));
