// Python's format(value, spec) mini-language, which str.format applies to each field:
// [[fill]align][sign][#][0][width][,|_][.precision][type].
import { Fault } from "../errors";
import { Undefined } from "../undefined";
import { Markup, typeName, type Value } from "../values";
import { exponent, fixed, general, intDigits, noTypeFloat } from "./formatNumber";
import { isInt, toBig } from "./numbers";
import { strValue } from "./repr";
import { charCode, codePoints, pyLen } from "./text";

const SPEC = /^(?:(.)?([<>=^]))?([-+ ])?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([bcdeEfFgGnosxX%])?$/su;

export function formatValue(v: Value, spec: string): string {
  if (v instanceof Undefined) {
    if (spec === "") return "";
    throw v.fault();
  }
  if (spec === "") return strValue(v);
  const m = SPEC.exec(spec);
  if (!m) throw Fault.value(`Invalid format specifier '${spec}' for object of type '${typeName(v)}'`);
  const [, fillC, alignC, sign, alt, zero, widthS, group, precS, type] = m;
  const fill = fillC ?? (zero && !alignC ? "0" : " ");
  const align = alignC ?? (zero && !fillC ? "=" : null);
  const width = widthS ? Number(widthS) : 0;
  const prec = precS !== undefined ? Number(precS) : null;
  let body: string;
  let numeric = true;
  if (typeof v === "string" || v instanceof Markup) {
    if (type && type !== "s") throw Fault.value(`Unknown format code '${type}' for object of type 'str'`);
    if (sign) throw Fault.value("Sign not allowed in string format specifier");
    const s = typeof v === "string" ? v : v.s;
    body = prec === null ? s : codePoints(s).slice(0, prec).join("");
    numeric = false;
  } else if (isInt(v) && (!type || "bcdoxXn".includes(type))) {
    if (prec !== null) throw Fault.value("Precision not allowed in integer format specifier");
    if (typeof v === "boolean" && !type && !sign && !widthS) return v ? "True" : "False";
    const n = toBig(v);
    const base = type === "b" ? 2 : type === "o" ? 8 : type === "x" || type === "X" ? 16 : 10;
    if (type === "c") return String.fromCodePoint(charCode(n));
    let digits = intDigits(n, base);
    if (group) digits = groupDigits(digits, group, base === 10 ? 3 : 4);
    if (type === "X") digits = digits.toUpperCase();
    const prefix = alt ? (base === 2 ? "0b" : base === 8 ? "0o" : base === 16 ? (type === "X" ? "0X" : "0x") : "") : "";
    body = signOf(n < 0n, sign) + prefix + digits;
  } else if (typeof v === "number" || isInt(v)) {
    const x = typeof v === "number" ? v : Number(toBig(v));
    const t = type ?? "";
    const p = prec ?? 6;
    let s: string;
    if (t === "f" || t === "F") s = fixed(Math.abs(x), p);
    else if (t === "e" || t === "E") s = exponent(Math.abs(x), p);
    else if (t === "g" || t === "G" || t === "n") s = general(Math.abs(x), prec ?? 6, !!alt);
    else if (t === "%") s = fixed(Math.abs(x) * 100, p) + "%";
    else if (t === "") s = typeof v === "number" ? noTypeFloat(Math.abs(x), prec) : intDigits(toBig(v as bigint), 10);
    else throw Fault.value(`Unknown format code '${t}' for object of type 'float'`);
    if (t === "F" || t === "E" || t === "G") s = s.toUpperCase();
    if (group) {
      const [i, f] = s.split(".");
      s = groupDigits(i, group, 3) + (f !== undefined ? "." + f : "");
    }
    body = signOf(x < 0 || Object.is(x, -0), sign) + s;
  } else {
    throw Fault.type(`unsupported format string passed to ${typeName(v)}.__format__`);
  }
  return pad(body, width, fill, align ?? (numeric ? ">" : "<"));
}

function signOf(negative: boolean, sign: string | undefined): string {
  return negative ? "-" : sign === "+" ? "+" : sign === " " ? " " : "";
}

function groupDigits(d: string, sep: string, every: number): string {
  let out = "";
  for (let i = 0; i < d.length; i++) {
    if (i > 0 && (d.length - i) % every === 0) out += sep;
    out += d[i];
  }
  return out;
}

function pad(s: string, width: number, fill: string, align: string): string {
  const n = width - pyLen(s);
  if (n <= 0) return s;
  switch (align) {
    case "<":
      return s + fill.repeat(n);
    case ">":
      return fill.repeat(n) + s;
    case "^":
      return fill.repeat(n >> 1) + s + fill.repeat(n - (n >> 1));
  }
  const m = /^([-+ ]?(?:0[bBoOxX])?)(.*)$/s.exec(s)!;
  return m[1] + fill.repeat(n) + m[2];
}
