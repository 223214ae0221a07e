// Jinja2's string filters (jinja2/filters.py, 3.1) with autoescape off, as chat templates run.
// "soft_str" in Jinja2 is str() of the value, so None becomes 'None' before lower/trim/….
import { type FilterFn, NO_ARGS, type Runtime } from "../dialect";
import { PyDict } from "../dict";
import { Fault } from "../errors";
import { slice } from "../python/access";
import { truthy } from "../python/compare";
import { len } from "../python/iterate";
import { arith } from "../python/ops";
import { escapeHtml, escapeValue } from "../python/markup";
import { isInt, toBig } from "../python/numbers";
import { percentFormat } from "../python/percentFormat";
import { reprValue } from "../python/repr";
import { codePoints, isPySpace, pyLen } from "../python/text";
import { wrap } from "../python/textwrap";
import { doUrlize } from "./urlize";
import { Undefined } from "../undefined";
import { Markup, Tuple, typeName, type Value } from "../values";
import { bind, opt } from "./args";
import { tests } from "./tests";
import { pyCapitalize, splitlines, strMethods } from "./strMethods";

function soft(rt: Runtime, v: Value): string {
  return v instanceof Markup ? v.s : rt.str(v);
}

/** Applies a str method to the value's str(), keeping Markup-ness as Jinja2's soft_str does. */
function viaMethod(name: string, rt: Runtime, v: Value, args: Value[]): Value {
  const self = v instanceof Markup ? v : soft(rt, v);
  return strMethods[name](rt, self, { args, kwargs: null });
}

function wrapLike(v: Value, s: string): Value {
  return v instanceof Markup ? new Markup(s) : s;
}

function intArg(v: Value, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  if (v instanceof Undefined) throw v.fault();
  if (!isInt(v)) throw Fault.type(`'${typeof v === "number" ? "float" : "str"}' object cannot be interpreted as an integer`);
  return Number(toBig(v));
}

/** do_indent starts with `s += "\n"`: only a str survives that (Undefined raises, others TypeError). */
function indentInput(v: Value): string {
  if (typeof v === "string") return v;
  if (v instanceof Markup) return v.s;
  if (v instanceof Undefined) throw v.fault();
  if (Array.isArray(v)) throw new Fault("runtime/type", "AttributeError", "'list' object has no attribute 'splitlines'");
  if (v instanceof Tuple) throw Fault.type('can only concatenate tuple (not "str") to tuple');
  throw Fault.type(`unsupported operand type(s) for +=: '${typeName(v)}' and 'str'`);
}

/** A str argument that Python calls `method` on: Undefined raises, other types have no such attribute. */
function strArg(v: Value, method: string): string {
  if (typeof v === "string") return v;
  if (v instanceof Markup) return v.s;
  if (v instanceof Undefined) throw v.fault();
  throw new Fault("runtime/type", "AttributeError", `'${typeName(v)}' object has no attribute '${method}'`);
}

const WORD_BEGINNING = /([-\s({[<]+)/u;

/** Python's urllib.parse.quote: everything but unreserved characters (and `safe`) percent-encoded. */
function urlQuote(rt: Runtime, v: Value, forQs: boolean): string {
  const s = typeof v === "string" ? v : v instanceof Markup ? v.s : rt.str(v);
  const safe = forQs ? "" : "/";
  const bytes = new TextEncoder().encode(s);
  rt.tick(bytes.length);
  let out = "";
  for (const byte of bytes) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9_.\-~]/.test(ch) || safe.includes(ch) ? ch : "%" + byte.toString(16).toUpperCase().padStart(2, "0");
  }
  return forQs ? out.replace(/%20/g, "+") : out;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/**
 * markupsafe 3's loop `while (start := value.find(open)) != -1: end = value.find(close, start); … cut` in linear
 * time: the text before the first `open` never changes again, so it is kept on a stack that each cut pops back to,
 * and an `open` formed across a cut is seen when its last character is pushed. (The regex `<!--.*?-->` that
 * markupsafe 2 used rescans to the end from every unclosed `<!--`: quadratic.)
 */
function cutBetween(value: string, open: string, close: string): string {
  const kept = new Uint16Array(value.length);
  let n = 0;
  let i = 0;
  const endsWithOpen = () => {
    if (n < open.length) return false;
    for (let k = 0; k < open.length; k++) if (kept[n - open.length + k] !== open.charCodeAt(k)) return false;
    return true;
  };
  while (i < value.length) {
    kept[n++] = value.charCodeAt(i++);
    if (!endsWithOpen()) continue;
    // `close` may begin inside `open` itself (`<!-->` is a whole comment)
    let after = -1;
    for (let j = 1; j < open.length && after < 0; j++) {
      const head = open.slice(j);
      if ((head + value.slice(i, i + close.length)).startsWith(close)) after = i + close.length - head.length;
    }
    if (after < 0) {
      const e = value.indexOf(close, i);
      if (e < 0) break;
      after = e + close.length;
    }
    n -= open.length;
    i = after;
  }
  let out = "";
  for (let k = 0; k < n; k += 8192) out += String.fromCharCode(...kept.subarray(k, Math.min(n, k + 8192)));
  return out + value.slice(i);
}

/** markupsafe's striptags: drop comments, then tags, collapse whitespace, unescape entities. */
function striptags(s: string): string {
  const text = cutBetween(cutBetween(s, "<!--", "-->"), "<", ">");
  const collapsed = codePoints(text)
    .map((c) => (isPySpace(c) ? " " : c))
    .join("")
    .split(" ")
    .filter(Boolean)
    .join(" ");
  return collapsed.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === "#") return String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** filters._attr_key_re.search(key): characters that move an HTML parser from the name to the value. */
function checkAttrName(k: Value): void {
  const name = typeof k === "string" ? k : k instanceof Markup ? k.s : null;
  if (name === null) throw Fault.type(`expected string or bytes-like object, got '${typeName(k)}'`);
  if (/[ \t\n\r\f\v/>=]/.test(name)) throw Fault.value(`Invalid character in attribute name: ${reprValue(k)}`);
}

/**
 * do_xmlattr. Since 3.1.3/3.1.4 a key with whitespace, `/`, `>` or `=` (characters that would end an
 * attribute name) is a ValueError (`checkKeys`); 3.1.2 wrote it as is.
 */
export function doXmlattr(checkKeys: boolean): FilterFn {
  return (rt, v, a) => {
    const [autospace] = bind("do_xmlattr", ["autospace"], a);
    // d.items() on an Undefined raises its UndefinedError.
    if (v instanceof Undefined) throw v.fault();
    if (!(v instanceof PyDict)) throw new Fault("runtime/type", "AttributeError", `'${typeName(v)}' object has no attribute 'items'`);
    const items: string[] = [];
    for (const [k, x] of v.entries()) {
      if (x === null || x instanceof Undefined) continue;
      if (checkKeys) checkAttrName(k);
      items.push(`${escapeValue(k, rt.str).s}="${escapeValue(x, rt.str).s}"`);
    }
    const joined = items.join(" ");
    const rv = truthy(opt(autospace, true)) && joined ? " " + joined : joined;
    return rt.autoescaping() ? new Markup(rv) : rv;
  };
}

export const stringFilters: Record<string, FilterFn> = {
  capitalize: (rt, v) => wrapLike(v, pyCapitalize(soft(rt, v))),
  center: (rt, v, a) => {
    const [width] = bind("do_center", ["width"], a);
    return viaMethod("center", rt, v, [opt(width, 80n)]);
  },
  escape: (rt, v) => escapeValue(v, rt.str),
  forceescape: (rt, v) => new Markup(escapeHtml(v instanceof Markup ? v.s : rt.str(v))),
  format: (rt, v, a) => {
    if (a.args.length && a.kwargs?.size)
      throw new Fault("runtime/error", "FilterArgumentError", "can't handle positional and keyword arguments at the same time");
    return percentFormat(soft(rt, v), a.kwargs?.size ? PyDict.from(a.kwargs) : new Tuple(a.args), rt);
  },
  indent: (rt, v, a) => {
    const [width, first, blank] = bind("do_indent", ["width", "first", "blank"], a);
    const w = opt(width, 4n);
    const ind = typeof w === "string" ? w : w instanceof Markup ? w.s : " ".repeat(intArg(w, 4));
    const lines = splitlines(indentInput(v) + "\n", false);
    let rv: string;
    if (truthy(opt(blank, false))) rv = lines.join("\n" + ind);
    else {
      rv = lines.shift() ?? "";
      if (lines.length) rv += "\n" + lines.map((l) => (l ? ind + l : l)).join("\n");
    }
    if (truthy(opt(first, false))) rv = ind + rv;
    rt.checkSize(rv.length);
    return wrapLike(v, rv);
  },
  lower: (rt, v) => viaMethod("lower", rt, v, []),
  replace: (rt, v, a) => {
    const [old, by, count] = bind("do_replace", ["old", "new", "count"], a, 2);
    const n = count === undefined || count === null ? -1n : count;
    return strMethods.replace(rt, rt.str(v), { args: [rt.str(old!), rt.str(by!), n], kwargs: null });
  },
  safe: (rt, v) => (v instanceof Markup ? v : new Markup(rt.str(v))),
  string: (rt, v) => (v instanceof Markup ? v : rt.str(v)),
  striptags: (rt, v) => striptags(v instanceof Markup ? v.s : rt.str(v)),
  title: (rt, v) =>
    wrapLike(
      v,
      soft(rt, v)
        .split(WORD_BEGINNING)
        .filter(Boolean)
        .map((item) => {
          const cps = codePoints(item);
          return cps[0].toUpperCase() + cps.slice(1).join("").toLowerCase();
        })
        .join(""),
    ),
  trim: (rt, v, a) => {
    const [chars] = bind("do_trim", ["chars"], a);
    return viaMethod("strip", rt, v, chars === undefined ? [] : [chars]);
  },
  truncate: (rt, v, a) => {
    const [lengthV, killwords, endV, leewayV] = bind("do_truncate", ["length", "killwords", "end", "leeway"], a);
    const length = intArg(opt(lengthV, 255n), 255);
    const end = rt.str(opt(endV, "..."));
    const leeway = intArg(opt(leewayV, 5n), 5);
    if (length < pyLen(end)) throw new Fault("runtime/error", "AssertionError", `expected length >= ${pyLen(end)}, got ${length}`);
    if (leeway < 0) throw new Fault("runtime/error", "AssertionError", `expected leeway >= 0, got ${leeway}`);
    // do_truncate works on the value itself, not its str(): a short list comes back as is.
    if (typeof v !== "string" && !(v instanceof Markup)) {
      if (len(v) <= length + leeway) return v;
      if (truthy(opt(killwords, false))) return arith("+", slice(v, undefined, BigInt(length - pyLen(end)), undefined), end, rt);
      throw new Fault("runtime/type", "AttributeError", `'${typeName(v)}' object has no attribute 'rsplit'`);
    }
    const s = codePoints(v instanceof Markup ? v.s : v);
    if (s.length <= length + leeway) return s.join("");
    const head = s.slice(0, length - pyLen(end)).join("");
    if (truthy(opt(killwords, false))) return head + end;
    const cut = head.lastIndexOf(" ");
    return (cut < 0 ? head : head.slice(0, cut)) + end;
  },
  upper: (rt, v) => viaMethod("upper", rt, v, []),
  urlencode: (rt, v) => {
    if (typeof v === "string" || v instanceof Markup || !tests.iterable(rt, v, NO_ARGS)) return urlQuote(rt, v, false);
    const pairs: Value[] = v instanceof PyDict ? [...v.entries()].map(([k, x]) => new Tuple([k, x])) : [...rt.iterate(v)];
    return pairs
      .map((p) => {
        const [k, x] = rt.dialect.ops.unpack(p, 2, rt);
        return `${urlQuote(rt, k, true)}=${urlQuote(rt, x, true)}`;
      })
      .join("&");
  },
  urlize: (rt, v, a) => {
    const rv = doUrlize(rt, v, a);
    return rt.autoescaping() && typeof rv === "string" ? new Markup(rv) : rv;
  },
  wordcount: (rt, v) => BigInt(soft(rt, v).match(/[\p{L}\p{N}_]+/gu)?.length ?? 0),
  wordwrap: (rt, v, a) => {
    const [width, breakLong, wrapstring, breakHyphens] = bind(
      "do_wordwrap",
      ["width", "break_long_words", "wrapstring", "break_on_hyphens"],
      a,
    );
    const text = strArg(v, "splitlines");
    const sep = opt(wrapstring, null) === null ? "\n" : strArg(wrapstring!, "join");
    const w = opt(width, 79n);
    if (!isInt(w)) throw Fault.type(`'<=' not supported between instances of '${typeName(w)}' and 'int'`);
    rt.tick(text.length);
    const options = {
      width: Number(toBig(w)),
      breakLongWords: truthy(opt(breakLong, true)),
      breakOnHyphens: truthy(opt(breakHyphens, true)),
    };
    const out = splitlines(text, false)
      .map((line) => wrap(line, options).join(sep))
      .join(sep);
    rt.checkSize(out.length);
    return out;
  },
  xmlattr: doXmlattr(true),
};
stringFilters.e = stringFilters.escape;
