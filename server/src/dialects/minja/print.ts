// How minja turns values into text: `Value::dump` (nlohmann-style JSON, or the Python-like repr used
// when printing lists and dicts), `Value::to_str` (what `~`, `+` and `string` use) and what
// `{{ x }}` prints (ExpressionNode::do_render). minja has no tuples, undefined or namespaces of its
// own: tuples are arrays, undefined is null and a namespace is an object, so they print as such.
import { Fault, fixed, type Value } from "../../interpreter/kit";
import { arrayItems, isMinjaNull, objectEntries, outputText } from "./values";

/** nlohmann's `dump` of a double: shortest round-trip digits, `.0` when integral, exponent outside [1e-4, 1e15). */
export function nlohmannDouble(x: number): string {
  if (!Number.isFinite(x)) return "null";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mantissa, exp] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const k = digits.length;
  const n = Number(exp) + 1; // position of the decimal point relative to the digits
  if (k <= n && n <= 15) return sign + digits + "0".repeat(n - k) + ".0";
  if (0 < n && n <= 15) return sign + digits.slice(0, n) + "." + digits.slice(n);
  if (-4 < n && n <= 0) return sign + "0." + "0".repeat(-n) + digits;
  const e = n - 1;
  const ee = Math.abs(e) < 10 ? "0" + Math.abs(e) : String(Math.abs(e));
  return sign + digits[0] + (k > 1 ? "." + digits.slice(1) : "") + "e" + (e < 0 ? "-" : "+") + ee;
}

/** nlohmann's string escaping with ensure_ascii off: only `"`, `\` and control characters. */
export function jsonString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (c < 0x20) out += "\\u" + c.toString(16).padStart(4, "0");
    else out += ch;
  }
  return out + '"';
}

/** `dump_string`: the JSON form, re-quoted with `'` unless the string holds a `'`. */
function pyString(s: string): string {
  const j = jsonString(s);
  if (s.includes("'")) return j;
  return "'" + j.slice(1, -1).replace(/\\"/g, '"') + "'";
}

export interface DumpOptions {
  /** `tojson`: JSON quoting and booleans; otherwise the Python-like repr. */
  json: boolean;
  /** -1: one line with `, ` and `: `; n > 0: newlines and n spaces per level; 0: no spaces at all. */
  indent: number;
}

export function dump(v: Value, o: DumpOptions, level = 0): string {
  if (isMinjaNull(v)) return "null";
  const nl = (l: number) => (o.indent > 0 ? "\n" + " ".repeat(l * o.indent) : "");
  const sep = o.indent < 0 ? ", " : "," + nl(level + 1);
  const items = arrayItems(v);
  if (items) return "[" + nl(level + 1) + items.map((x) => dump(x, o, level + 1)).join(sep) + nl(level) + "]";
  const entries = objectEntries(v);
  if (entries) {
    const key = (k: Value) =>
      typeof k === "string"
        ? o.json
          ? jsonString(k)
          : pyString(k)
        : `${o.json ? '"' : "'"}${dump(k, { json: true, indent: -1 })}${o.json ? '"' : "'"}`;
    return "{" + nl(level + 1) + entries.map(([k, x]) => key(k) + ": " + dump(x, o, level + 1)).join(sep) + nl(level) + "}";
  }
  switch (typeof v) {
    case "boolean":
      return o.json ? String(v) : v ? "True" : "False";
    case "string":
      return o.json ? jsonString(v) : pyString(v);
    case "bigint":
      return v.toString();
    case "number":
      return nlohmannDouble(v);
  }
  throw new Fault("runtime/type", null, `Cannot dump ${typeof v} to JSON`);
}

/** `Value::to_str`: floats by `std::to_string` (`%f`), None and booleans Python-spelled, containers dumped. */
export function toStr(v: Value): string {
  if (typeof v === "string") return v;
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return fixed(v, 6);
  if (typeof v === "boolean") return v ? "True" : "False";
  if (isMinjaNull(v)) return "None";
  return dump(v, { json: false, indent: -1 });
}

/** `{{ x }}`: strings raw, booleans True/False, null nothing, the rest dumped. */
export function output(v: Value): string {
  if (typeof v === "string") return outputText(v);
  if (isMinjaNull(v)) return "";
  if (typeof v === "boolean") return v ? "True" : "False";
  return outputText(dump(v, { json: false, indent: -1 }));
}
