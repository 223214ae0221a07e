// Python's pprint.pformat(value) (width 80, indent 1, sort_dicts), what Jinja2's pprint filter
// returns: CPython 3.11's PrettyPrinter._format with its dict, list, tuple and str printers, and
// _safe_repr (dict keys sorted at every level) for what fits on a line.
import { PyDict } from "../dict";
import { Fault } from "../errors";
import { Tuple, typeName, type Value } from "../values";
import { order } from "./compare";
import { reprValue } from "./repr";
import { codePoints, isPySpace, pyLen, reprString } from "./text";
import { splitlines } from "../builtins/strMethods";

const WIDTH = 80;

/** sorted(items, key=_safe_tuple): Python's order, else (str(type), id) — insertion order stands in for id. */
function sortedItems(d: PyDict): [Value, Value][] {
  const typeKey = (v: Value) => `<class '${typeName(v)}'>`;
  return [...d.entries()].sort(([a], [b]) => {
    try {
      return order(a, b, "<");
    } catch (e) {
      if (!(e instanceof Fault) || e.pyType !== "TypeError") throw e;
      const x = typeKey(a);
      const y = typeKey(b);
      return x < y ? -1 : x > y ? 1 : 0;
    }
  });
}

/** pprint._safe_repr: repr() with dict keys sorted inside containers too. */
export function safeRepr(v: Value): string {
  if (v instanceof PyDict)
    return (
      "{" +
      sortedItems(v)
        .map(([k, x]) => `${safeRepr(k)}: ${safeRepr(x)}`)
        .join(", ") +
      "}"
    );
  if (Array.isArray(v)) return "[" + v.map(safeRepr).join(", ") + "]";
  if (v instanceof Tuple) return v.items.length === 1 ? `(${safeRepr(v.items[0])},)` : "(" + v.items.map(safeRepr).join(", ") + ")";
  return reprValue(v);
}

export function pformat(v: Value): string {
  const out: string[] = [];
  format(v, out, 0, 0, 0);
  return out.join("");
}

function format(v: Value, out: string[], indent: number, allowance: number, level: number): void {
  const rep = safeRepr(v);
  if (pyLen(rep) > WIDTH - indent - allowance) {
    if (v instanceof PyDict) return printDict(v, out, indent, allowance, level + 1);
    if (Array.isArray(v)) return printSeq(v, "[", "]", out, indent, allowance, level + 1);
    if (v instanceof Tuple) return printSeq(v.items, "(", v.items.length === 1 ? ",)" : ")", out, indent, allowance, level + 1);
    if (typeof v === "string") return printStr(v, out, indent, allowance, level + 1);
  }
  out.push(rep);
}

function printDict(d: PyDict, out: string[], indent: number, allowance: number, level: number): void {
  out.push("{");
  const items = sortedItems(d);
  indent += 1;
  items.forEach(([k, v], i) => {
    const last = i === items.length - 1;
    const rep = safeRepr(k);
    out.push(rep, ": ");
    format(v, out, indent + pyLen(rep) + 2, last ? allowance + 1 : 1, level);
    if (!last) out.push(",\n" + " ".repeat(indent));
  });
  out.push("}");
}

/** _pprint_list/_pprint_tuple → _format_items (not compact). */
function printSeq(
  items: readonly Value[],
  open: string,
  close: string,
  out: string[],
  indent: number,
  allowance: number,
  level: number,
): void {
  out.push(open);
  indent += 1;
  items.forEach((v, i) => {
    if (i > 0) out.push(",\n" + " ".repeat(indent));
    format(v, out, indent, i === items.length - 1 ? allowance + close.length : 1, level);
  });
  out.push(close);
}

/** re.findall(r'\S*\s*', line) without its final empty match. */
function wordsWithSpaces(line: string): string[] {
  const cps = codePoints(line);
  const parts: string[] = [];
  let i = 0;
  while (i < cps.length) {
    const start = i;
    while (i < cps.length && !isPySpace(cps[i])) i++;
    while (i < cps.length && isPySpace(cps[i])) i++;
    parts.push(cps.slice(start, i).join(""));
  }
  return parts;
}

function printStr(s: string, out: string[], indent: number, allowance: number, level: number): void {
  if (s === "") return void out.push(reprString(s));
  const lines = splitlines(s, true);
  if (level === 1) {
    indent += 1;
    allowance += 1;
  }
  const maxWidth = WIDTH - indent;
  let maxWidth1 = maxWidth;
  const chunks: string[] = [];
  let rep = "";
  lines.forEach((line, i) => {
    rep = reprString(line);
    const lastLine = i === lines.length - 1;
    if (lastLine) maxWidth1 -= allowance;
    if (pyLen(rep) <= maxWidth1) return void chunks.push(rep);
    const parts = wordsWithSpaces(line);
    let maxWidth2 = maxWidth;
    let current = "";
    parts.forEach((part, j) => {
      const candidate = current + part;
      if (j === parts.length - 1 && lastLine) maxWidth2 -= allowance;
      if (pyLen(reprString(candidate)) > maxWidth2) {
        if (current) chunks.push(reprString(current));
        current = part;
      } else current = candidate;
    });
    if (current) chunks.push(reprString(current));
  });
  if (chunks.length === 1) return void out.push(rep);
  if (level === 1) out.push("(");
  out.push(chunks.join("\n" + " ".repeat(indent)));
  if (level === 1) out.push(")");
}
