// Python's str methods as templates call them (`s.strip()`, `s.split(',', 1)`), by code point and
// with Python's notion of whitespace, case and line breaks. On a Markup they return Markup, as
// markupsafe's wrappers do.
import type { Method, MethodTable, Runtime } from "../dialect";
import { PyDict } from "../dict";
import { Fault } from "../errors";
import { escapeHtml } from "../python/markup";
import { isInt, toBig } from "../python/numbers";
import { strFormat } from "../python/strFormat";
import { codePoints, hasAstral, isPySpace, pyLen } from "../python/text";
import { Undefined } from "../undefined";
import { Markup, Tuple, typeName, type CallArgs, type Value } from "../values";
import { positional } from "./args";

/** A str argument; `what` names it as CPython does ("replace() argument 1"), or "" for none. */
function str(v: Value, what: string): string {
  if (typeof v === "string") return v;
  if (v instanceof Markup) return v.s;
  if (v instanceof Undefined) throw v.fault();
  throw Fault.type(`${what ? what + " " : ""}must be str, not ${typeName(v)}`);
}

/** An optional str argument (None allowed); `refusal` is CPython's whole message for other types. */
function optStr(v: Value | undefined, refusal: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === "string") return v;
  if (v instanceof Markup) return v.s;
  if (v instanceof Undefined) throw v.fault();
  throw Fault.type(refusal.replace("%T", typeName(v)));
}

function int(v: Value | undefined, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  if (v instanceof Undefined) throw v.fault();
  if (!isInt(v)) throw Fault.type(`'${typeName(v)}' object cannot be interpreted as an integer`);
  return Number(toBig(v));
}

/** `s[start:end]` bounds by code point, as the optional start/end of find, count, startswith. */
function window(s: string, start: Value | undefined, end: Value | undefined): { cps: string[]; a: number; b: number } {
  const cps = codePoints(s);
  const n = cps.length;
  const norm = (v: Value | undefined, d: number) => {
    if (v === undefined || v === null) return d;
    let i = int(v, d);
    if (i < 0) i = Math.max(0, i + n);
    return Math.min(i, n);
  };
  return { cps, a: norm(start, 0), b: norm(end, n) };
}

/** Index in code points of a UTF-16 offset. */
function cpIndex(s: string, utf16: number): number {
  return hasAstral(s) ? pyLen(s.slice(0, utf16)) : utf16;
}

function find(s: string, sub: string, start: Value | undefined, end: Value | undefined, fromRight: boolean): number {
  const { cps, a, b } = window(s, start, end);
  if (sub.length === 0) return a <= b ? (fromRight ? b : a) : -1;
  const hay = cps.slice(a, b).join("");
  const k = fromRight ? hay.lastIndexOf(sub) : hay.indexOf(sub);
  return k < 0 ? -1 : a + cpIndex(hay, k);
}

function stripSet(chars: string | null): (ch: string) => boolean {
  if (chars === null) return isPySpace;
  const set = new Set(codePoints(chars));
  return (ch) => set.has(ch);
}

function strip(s: string, chars: string | null, left: boolean, right: boolean): string {
  if (chars === null) {
    // Whitespace is never astral, so the UTF-16 units can be scanned directly.
    let a = 0;
    let b = s.length;
    if (left) while (a < b && isPySpace(s[a])) a++;
    if (right) while (b > a && isPySpace(s[b - 1])) b--;
    return a === 0 && b === s.length ? s : s.slice(a, b);
  }
  const cps = codePoints(s);
  const strips = stripSet(chars);
  let a = 0;
  let b = cps.length;
  if (left) while (a < b && strips(cps[a])) a++;
  if (right) while (b > a && strips(cps[b - 1])) b--;
  return cps.slice(a, b).join("");
}

function splitWhitespace(s: string, maxsplit: number, fromRight: boolean): string[] {
  const cps = codePoints(s);
  if (fromRight) cps.reverse();
  const out: string[] = [];
  let i = 0;
  while (i < cps.length) {
    while (i < cps.length && isPySpace(cps[i])) i++;
    if (i >= cps.length) break;
    if (maxsplit >= 0 && out.length === maxsplit) {
      let rest = cps.slice(i);
      let e = rest.length;
      while (e > 0 && isPySpace(rest[e - 1])) e--;
      rest = rest.slice(0, e);
      out.push((fromRight ? rest.reverse() : rest).join(""));
      break;
    }
    const j = i;
    while (i < cps.length && !isPySpace(cps[i])) i++;
    const word = cps.slice(j, i);
    out.push((fromRight ? word.reverse() : word).join(""));
  }
  return fromRight ? out.reverse() : out;
}

function split(s: string, sep: string | null, maxsplit: number, fromRight: boolean): string[] {
  if (sep === null) return splitWhitespace(s, maxsplit, fromRight);
  if (sep === "") throw Fault.value("empty separator");
  const parts = s.split(sep);
  if (maxsplit < 0 || parts.length - 1 <= maxsplit) return parts;
  if (fromRight) return [parts.slice(0, parts.length - maxsplit).join(sep), ...parts.slice(parts.length - maxsplit)];
  return [...parts.slice(0, maxsplit), parts.slice(maxsplit).join(sep)];
}

const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;

export function splitlines(s: string, keepends: boolean): string[] {
  const out: string[] = [];
  let last = 0;
  for (const m of s.matchAll(LINE_BREAK)) {
    out.push(s.slice(last, keepends ? m.index! + m[0].length : m.index));
    last = m.index! + m[0].length;
  }
  if (last < s.length) out.push(s.slice(last));
  return out;
}

const isCased = (ch: string) => /[\p{Lu}\p{Ll}\p{Lt}]/u.test(ch);
const isLowerCh = (ch: string) => /\p{Lowercase}/u.test(ch);
const isUpperCh = (ch: string) => /\p{Uppercase}/u.test(ch);

/** Python's str.title(): a cased character after an uncased one is title-cased, others lowered. */
export function pyTitle(s: string): string {
  let prevCased = false;
  let out = "";
  for (const ch of s) {
    if (isCased(ch)) {
      out += prevCased ? ch.toLowerCase() : titleCase(ch);
      prevCased = true;
    } else {
      out += ch;
      prevCased = false;
    }
  }
  return out;
}

/** Title case of one character (differs from upper case only for digraphs such as ǆ → ǅ). */
function titleCase(ch: string): string {
  const special: Record<string, string> = { ǆ: "ǅ", Ǆ: "ǅ", ǉ: "ǈ", Ǉ: "ǈ", ǌ: "ǋ", Ǌ: "ǋ", ǳ: "ǲ", Ǳ: "ǲ" };
  return special[ch] ?? (ch === "ß" ? "Ss" : ch.toUpperCase());
}

export function pyCapitalize(s: string): string {
  const cps = codePoints(s);
  return cps.length ? titleCase(cps[0]) + cps.slice(1).join("").toLowerCase() : "";
}

function every(s: string, p: (ch: string) => boolean): boolean {
  if (s.length === 0) return false;
  for (const ch of s) if (!p(ch)) return false;
  return true;
}

function caseCheck(s: string, want: "lower" | "upper"): boolean {
  let cased = false;
  for (const ch of s) {
    if (want === "lower" ? isUpperCh(ch) || /\p{Lt}/u.test(ch) : isLowerCh(ch) || /\p{Lt}/u.test(ch)) return false;
    if (want === "lower" ? isLowerCh(ch) : isUpperCh(ch)) cased = true;
  }
  return cased;
}

function istitle(s: string): boolean {
  let prevCased = false;
  let cased = false;
  for (const ch of s) {
    if (isUpperCh(ch) || /\p{Lt}/u.test(ch)) {
      if (prevCased) return false;
      prevCased = cased = true;
    } else if (isLowerCh(ch)) {
      if (!prevCased) return false;
      prevCased = cased = true;
    } else prevCased = false;
  }
  return cased;
}

const DIGIT =
  /[\p{Nd}\u00b2\u00b3\u00b9\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247c\u2488-\u2490\u24ea\u24f5-\u24fd\u24ff\u2776-\u277e\u2780-\u2788\u278a-\u2792]/u;

function justify(s: string, width: number, fill: string, where: "left" | "right" | "center"): string {
  const n = width - pyLen(s);
  if (n <= 0) return s;
  if (where === "left") return s + fill.repeat(n);
  if (where === "right") return fill.repeat(n) + s;
  // CPython: left = marg / 2 + (marg & width & 1)
  const left = (n >> 1) + (n & width & 1);
  return fill.repeat(left) + s + fill.repeat(n - left);
}

function fillChar(v: Value | undefined): string {
  if (v === undefined) return " ";
  const f = str(v, "The fill character");
  if (pyLen(f) !== 1) throw Fault.type("The fill character must be exactly one character long");
  return f;
}

function affixes(v: Value, what: string): string[] {
  if (v instanceof Tuple) return v.items.map((x) => str(x, `tuple for ${what} must only contain str, not ${typeName(x)}`));
  if (typeof v === "string" || v instanceof Markup) return [str(v, what)];
  throw Fault.type(`${what} first arg must be str or a tuple of str, not ${typeName(v)}`);
}

function affixTest(s: string, a: Value[], name: string, atEnd: boolean): boolean {
  const { cps, a: lo, b: hi } = window(s, a[1], a[2]);
  const part = cps.slice(lo, hi).join("");
  if (lo > cps.length) return false;
  return affixes(a[0], name).some((x) => (atEnd ? part.endsWith(x) : part.startsWith(x)));
}

function replace(s: string, old: string, by: string, count: number): string {
  if (count === 0) return s;
  if (old === "") {
    const cps = codePoints(s);
    const n = count < 0 ? cps.length + 1 : Math.min(count, cps.length + 1);
    let out = "";
    for (let i = 0; i < cps.length; i++) out += (i < n ? by : "") + cps[i];
    return out + (n > cps.length ? by : "");
  }
  if (count < 0) return s.split(old).join(by);
  const parts = s.split(old);
  return parts.slice(0, count + 1).join(by) + (parts.length > count + 1 ? old + parts.slice(count + 1).join(old) : "");
}

function expandtabs(s: string, size: number): string {
  let out = "";
  let col = 0;
  for (const ch of s) {
    if (ch === "\t") {
      const n = size > 0 ? size - (col % size) : 0;
      out += " ".repeat(n);
      col += n;
    } else {
      out += ch;
      col = ch === "\n" || ch === "\r" ? 0 : col + 1;
    }
  }
  return out;
}

function join(rt: Runtime, sep: string, it: Value): string {
  const parts: string[] = [];
  let i = 0;
  for (const x of rt.iterate(it)) {
    if (typeof x === "string") parts.push(x);
    else if (x instanceof Markup) parts.push(x.s);
    else throw Fault.type(`sequence item ${i}: expected str instance, ${typeName(x)} found`);
    i++;
  }
  rt.tick(parts.length);
  const s = parts.join(sep);
  rt.checkSize(s.length);
  return s;
}

const VARARGS = new Set([
  "count",
  "endswith",
  "find",
  "index",
  "rfind",
  "rindex",
  "startswith",
  "split",
  "rsplit",
  "expandtabs",
  "splitlines",
]);

/** `markup`: the string is a Markup, whose format/format_map escape what they insert. */
type Impl = (s: string, a: Value[], rt: Runtime, kw: CallArgs, markup: boolean) => Value;

/** Positional-only methods with an arity; keyword arguments are refused as CPython does. */
function m(name: string, max: number, min: number, impl: Impl): Method {
  return (rt, self, call) => {
    const s = str(self, "");
    const args = name === "format" ? call.args : positional(`str.${name}`, call, max, min, VARARGS.has(name));
    const r = impl(s, args, rt, call, self instanceof Markup);
    if (!(self instanceof Markup)) return r;
    if (typeof r === "string") return new Markup(r);
    if (Array.isArray(r)) return r.map((x) => (typeof x === "string" ? new Markup(x) : x));
    if (r instanceof Tuple) return new Tuple(r.items.map((x) => (typeof x === "string" ? new Markup(x) : x)));
    return r;
  };
}

/** split/rsplit/splitlines accept keywords (`sep=`, `maxsplit=`, `keepends=`). */
function kw(a: CallArgs, names: string[]): CallArgs {
  if (!a.kwargs) return a;
  const args = [...a.args];
  for (const [k, v] of a.kwargs) {
    const i = names.indexOf(k);
    if (i < 0) throw Fault.type(`'${k}' is an invalid keyword argument for this function`);
    args[i] = v;
  }
  for (let i = 0; i < args.length; i++) if (args[i] === undefined) args[i] = i === 1 ? -1n : null;
  return { args, kwargs: null };
}

const markupArg = (self: Value, v: string): string => (self instanceof Markup ? escapeHtml(v) : v);

export const strMethods: MethodTable = {
  capitalize: m("capitalize", 0, 0, (s) => pyCapitalize(s)),
  center: m("center", 2, 1, (s, a) => justify(s, int(a[0], 0), fillChar(a[1]), "center")),
  count: m("count", 3, 1, (s, a) => {
    const sub = str(a[0], "");
    const { cps, a: lo, b: hi } = window(s, a[1], a[2]);
    if (lo > cps.length) return 0n;
    const part = cps.slice(lo, hi).join("");
    return BigInt(sub === "" ? pyLen(part) + 1 : part.split(sub).length - 1);
  }),
  endswith: m("endswith", 3, 1, (s, a) => affixTest(s, a, "endswith", true)),
  expandtabs: m("expandtabs", 1, 0, (s, a) => expandtabs(s, int(a[0], 8))),
  find: m("find", 3, 1, (s, a) => BigInt(find(s, str(a[0], ""), a[1], a[2], false))),
  format: m("format", Infinity, 0, (s, a, rt, call, markup) => strFormat(s, a, call.kwargs ?? new Map(), rt, markup)),
  format_map: m("format_map", 1, 1, (s, a, rt, _call, markup) => {
    if (!(a[0] instanceof PyDict)) throw Fault.type(`'${typeName(a[0])}' object is not subscriptable`);
    return strFormat(s, [], a[0], rt, markup);
  }),
  index: m("index", 3, 1, (s, a) => {
    const i = find(s, str(a[0], ""), a[1], a[2], false);
    if (i < 0) throw Fault.value("substring not found");
    return BigInt(i);
  }),
  isalnum: m("isalnum", 0, 0, (s) => every(s, (ch) => /[\p{L}\p{N}]/u.test(ch))),
  isalpha: m("isalpha", 0, 0, (s) => every(s, (ch) => /\p{L}/u.test(ch))),
  isascii: m("isascii", 0, 0, (s) => /^[\x00-\x7f]*$/.test(s)),
  isdecimal: m("isdecimal", 0, 0, (s) => every(s, (ch) => /\p{Nd}/u.test(ch))),
  isdigit: m("isdigit", 0, 0, (s) => every(s, (ch) => DIGIT.test(ch))),
  isidentifier: m("isidentifier", 0, 0, (s) => /^[\p{XID_Start}_][\p{XID_Continue}]*$/u.test(s)),
  islower: m("islower", 0, 0, (s) => caseCheck(s, "lower")),
  isnumeric: m("isnumeric", 0, 0, (s) => every(s, (ch) => /\p{N}/u.test(ch))),
  isprintable: m(
    "isprintable",
    0,
    0,
    (s) => !/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/u.test(s),
  ),
  isspace: m("isspace", 0, 0, (s) => every(s, isPySpace)),
  istitle: m("istitle", 0, 0, (s) => istitle(s)),
  isupper: m("isupper", 0, 0, (s) => caseCheck(s, "upper")),
  join: (rt, self, a) => {
    const [it] = positional("str.join", a, 1, 1);
    if (self instanceof Markup)
      return new Markup(
        join(
          rt,
          self.s,
          [...rt.iterate(it)].map((x) => (typeof x === "string" ? escapeHtml(x) : x)),
        ),
      );
    return join(rt, str(self, "descriptor"), it);
  },
  ljust: m("ljust", 2, 1, (s, a) => justify(s, int(a[0], 0), fillChar(a[1]), "left")),
  lower: m("lower", 0, 0, (s) => s.toLowerCase()),
  lstrip: m("lstrip", 1, 0, (s, a) => strip(s, optStr(a[0], "lstrip arg must be None or str"), true, false)),
  partition: m("partition", 1, 1, (s, a) => {
    const sep = str(a[0], "");
    if (sep === "") throw Fault.value("empty separator");
    const i = s.indexOf(sep);
    return new Tuple(i < 0 ? [s, "", ""] : [s.slice(0, i), sep, s.slice(i + sep.length)]);
  }),
  removeprefix: m("removeprefix", 1, 1, (s, a) => {
    const p = str(a[0], "removeprefix() argument");
    return p && s.startsWith(p) ? s.slice(p.length) : s;
  }),
  removesuffix: m("removesuffix", 1, 1, (s, a) => {
    const p = str(a[0], "removesuffix() argument");
    return p && s.endsWith(p) ? s.slice(0, s.length - p.length) : s;
  }),
  replace: (rt, self, call) => {
    const a = positional("str.replace", call, 3, 2);
    const s = str(self, "");
    const r = replace(s, str(a[0], "replace() argument 1"), markupArg(self, str(a[1], "replace() argument 2")), int(a[2], -1));
    rt.checkSize(r.length);
    return self instanceof Markup ? new Markup(r) : r;
  },
  rfind: m("rfind", 3, 1, (s, a) => BigInt(find(s, str(a[0], ""), a[1], a[2], true))),
  rindex: m("rindex", 3, 1, (s, a) => {
    const i = find(s, str(a[0], ""), a[1], a[2], true);
    if (i < 0) throw Fault.value("substring not found");
    return BigInt(i);
  }),
  rjust: m("rjust", 2, 1, (s, a) => justify(s, int(a[0], 0), fillChar(a[1]), "right")),
  rpartition: m("rpartition", 1, 1, (s, a) => {
    const sep = str(a[0], "");
    if (sep === "") throw Fault.value("empty separator");
    const i = s.lastIndexOf(sep);
    return new Tuple(i < 0 ? ["", "", s] : [s.slice(0, i), sep, s.slice(i + sep.length)]);
  }),
  rsplit: (rt, self, call) => strMethodsSplit(rt, self, call, true),
  rstrip: m("rstrip", 1, 0, (s, a) => strip(s, optStr(a[0], "rstrip arg must be None or str"), false, true)),
  split: (rt, self, call) => strMethodsSplit(rt, self, call, false),
  splitlines: (rt, self, call) =>
    m("splitlines", 1, 0, (s, a) => splitlines(s, a[0] !== undefined && a[0] !== null && a[0] !== false && a[0] !== 0n))(
      rt,
      self,
      kw(call, ["keepends"]),
    ),
  startswith: m("startswith", 3, 1, (s, a) => affixTest(s, a, "startswith", false)),
  strip: m("strip", 1, 0, (s, a) => strip(s, optStr(a[0], "strip arg must be None or str"), true, true)),
  swapcase: m("swapcase", 0, 0, (s) =>
    Array.from(s, (ch) => (isUpperCh(ch) ? ch.toLowerCase() : isLowerCh(ch) ? ch.toUpperCase() : ch)).join(""),
  ),
  title: m("title", 0, 0, (s) => pyTitle(s)),
  upper: m("upper", 0, 0, (s) => s.toUpperCase()),
  zfill: m("zfill", 1, 1, (s, a) => {
    const w = int(a[0], 0);
    const n = w - pyLen(s);
    if (n <= 0) return s;
    const sign = s[0] === "+" || s[0] === "-" ? s[0] : "";
    return sign + "0".repeat(n) + s.slice(sign.length);
  }),
};

function strMethodsSplit(rt: Runtime, self: Value, call: CallArgs, fromRight: boolean): Value {
  const name = fromRight ? "rsplit" : "split";
  return m(name, 2, 0, (s, a) => {
    const parts = split(s, optStr(a[0], "must be str or None, not %T"), int(a[1], -1), fromRight);
    rt.tick(parts.length);
    return parts;
  })(rt, self, kw(call, ["sep", "maxsplit"]));
}
