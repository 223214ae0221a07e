// Jinja2's urlize (jinja2/utils.py, 3.1.6) and the do_urlize filter around it: escape the text,
// split it at whitespace, peel leading `(`/`<` and trailing punctuation off each word (keeping
// balanced parentheses), and link what _http_re or _email_re accept. The regexes are Python's,
// with \w, \d, \s and \S spelled as Python reads them on str.
import type { FilterFn } from "../dialect";
import { Fault } from "../errors";
import { escapeHtml, escapeValue } from "../python/markup";
import { codePoints, pyLen } from "../python/text";
import { Markup, typeName, type Value } from "../values";
import { bind, opt } from "./args";
import { truthy } from "../python/compare";
import { isInt, toBig } from "../python/numbers";
import { reprValue } from "../python/repr";

const SPACE = "\\t\\n\\x0b\\x0c\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const W = "\\p{L}\\p{N}_";
const D = "\\p{Nd}";

const HTTP = new RegExp(
  "^(" +
    `(https?://|www\\.)(([${W}%-]+\\.)+)?([a-z]{2,63}|xn--[${W}%]{2,59})` +
    `|([${W}%-]{2,63}\\.)+(com|net|int|edu|gov|org|info|mil)` +
    `|(https?://)((([${D}]{1,3})(\\.[${D}]{1,3}){3})|(\\[([${D}a-f]{0,4}:){2}([${D}a-f]{0,4}:?){1,6}\\]))` +
    `)(?::[${D}]{1,5})?(?:[/?#][^${SPACE}]*)?$`,
  "iu",
);
const EMAIL = new RegExp(`^[^${SPACE}]+@[${W}][${W}.-]*\\.[${W}]+$`, "u");
const WORDS = new RegExp(`([${SPACE}]+)`, "u");
const HEAD = /^([(<]|&lt;)+/;
const TAIL = /([)>.,\n]|&gt;)+$/;
const TAIL_ENDS = [")", ">", ".", ",", "\n", "&gt;"];
/** filters._uri_scheme_re */
const SCHEME = new RegExp(`^([${W}.+-]{2,}:(/){0,2})$`, "u");

interface UrlizeOptions {
  trimUrlLimit: number | null;
  rel: string | null;
  target: string | null;
  extraSchemes: readonly string[];
}

const count = (s: string, sub: string): number => s.split(sub).length - 1;

/** utils.urlize on the text markupsafe.escape made of the input. */
export function urlize(escaped: string, o: UrlizeOptions): string {
  const trim = (x: string): string => {
    if (o.trimUrlLimit === null || pyLen(x) <= o.trimUrlLimit) return x;
    return codePoints(x).slice(0, Math.max(0, o.trimUrlLimit)).join("") + "...";
  };
  const relAttr = o.rel ? ` rel="${escapeHtml(o.rel)}"` : "";
  const targetAttr = o.target ? ` target="${o.target}"` : "";
  return escaped
    .split(WORDS)
    .map((word) => {
      let head = "";
      let middle = word;
      let tail = "";
      const lead = HEAD.exec(middle);
      if (lead) {
        head = lead[0];
        middle = middle.slice(lead[0].length);
      }
      if (TAIL_ENDS.some((e) => middle.endsWith(e))) {
        const m = TAIL.exec(middle);
        if (m) {
          tail = m[0];
          middle = middle.slice(0, m.index);
        }
      }
      // Prefer balancing parentheses in URLs over ignoring a trailing character.
      for (const [open, close] of [
        ["(", ")"],
        ["<", ">"],
        ["&lt;", "&gt;"],
      ]) {
        const opens = count(middle, open);
        if (opens <= count(middle, close)) continue;
        for (let k = Math.min(opens, count(tail, close)); k > 0; k--) {
          const end = tail.indexOf(close) + close.length;
          middle += tail.slice(0, end);
          tail = tail.slice(end);
        }
      }
      if (HTTP.test(middle)) {
        const href = middle.startsWith("https://") || middle.startsWith("http://") ? middle : `https://${middle}`;
        middle = `<a href="${href}"${relAttr}${targetAttr}>${trim(middle)}</a>`;
      } else if (middle.startsWith("mailto:") && EMAIL.test(middle.slice(7))) {
        middle = `<a href="${middle}">${middle.slice(7)}</a>`;
      } else if (
        middle.includes("@") &&
        !middle.startsWith("www.") &&
        !middle.startsWith("@") &&
        !middle.includes(":") &&
        EMAIL.test(middle)
      ) {
        middle = `<a href="mailto:${middle}">${middle}</a>`;
      } else {
        for (const scheme of o.extraSchemes) {
          if (middle !== scheme && middle.startsWith(scheme)) middle = `<a href="${middle}"${relAttr}${targetAttr}>${middle}</a>`;
        }
      }
      return head + middle + tail;
    })
    .join("");
}

function strOf(v: Value): string | null {
  return typeof v === "string" ? v : v instanceof Markup ? v.s : null;
}

/** do_urlize with the default policies: rel "noopener", no target, no extra schemes. */
export const doUrlize: FilterFn = (rt, v, a) => {
  const [trimV, nofollow, targetV, relV, schemesV] = bind("do_urlize", ["trim_url_limit", "nofollow", "target", "rel", "extra_schemes"], a);
  const rel = opt(relV, null);
  const relText = rel === null || !truthy(rel) ? "" : strOf(rel);
  if (relText === null) throw new Fault("runtime/type", "AttributeError", `'${typeName(rel)}' object has no attribute 'split'`);
  const relParts = new Set(relText.split(/\s+/).filter(Boolean));
  if (truthy(opt(nofollow, false))) relParts.add("nofollow");
  relParts.add("noopener");
  const trimLimit = opt(trimV, null);
  if (trimLimit !== null && !isInt(trimLimit))
    throw Fault.type(`'>' not supported between instances of 'int' and '${typeName(trimLimit)}'`);
  const target = opt(targetV, null);
  const schemes = opt(schemesV, null) === null ? [] : [...rt.iterate(schemesV!)];
  const schemeTexts = schemes.map((s) => {
    const t = strOf(s);
    if (t === null) throw Fault.type(`expected string or bytes-like object, got '${typeName(s)}'`);
    if (!SCHEME.test(t)) throw new Fault("runtime/error", "FilterArgumentError", `${reprValue(s)} is not a valid URI scheme prefix.`);
    return t;
  });
  const escaped = escapeValue(v, rt.str).s;
  rt.tick(escaped.length);
  const out = urlize(escaped, {
    trimUrlLimit: trimLimit === null ? null : Number(toBig(trimLimit)),
    rel: [...relParts].sort().join(" "),
    target: target !== null && truthy(target) ? escapeValue(target, rt.str).s : null,
    extraSchemes: schemeTexts,
  });
  rt.checkSize(out.length);
  return out;
};
