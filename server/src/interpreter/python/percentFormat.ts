// Python's printf-style `str % args` (and Jinja2's `format` filter, which is the same operator).
import { PyDict } from "../dict";
import { Fault } from "../errors";
import type { Runtime } from "../dialect";
import { Undefined } from "../undefined";
import { PyRange, Tuple, typeName, type Value } from "../values";
import { exponent, fixed, general, intDigits } from "./formatNumber";
import { isInt, isNumber, toBig, toFloat } from "./numbers";
import { reprValue, strValue } from "./repr";
import { charCode, codePoints, pyLen } from "./text";

const SPEC = /%(?:\(([^)]*)\))?([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?[hlL]?(.?)/gy;

export function percentFormat(fmt: string, args: Value, rt: Runtime): string {
  const list = args instanceof Tuple ? args.items : [args];
  // Python treats a lone non-str argument with __getitem__ as a possible mapping: no "not all
  // arguments converted" error for it.
  const mapping = args instanceof PyDict || Array.isArray(args) || args instanceof Undefined || args instanceof PyRange;
  let next = 0;
  const take = (): Value => {
    if (next >= list.length) throw Fault.type("not enough arguments for format string");
    return list[next++];
  };
  let out = "";
  let i = 0;
  while (i < fmt.length) {
    const p = fmt.indexOf("%", i);
    if (p < 0) {
      out += fmt.slice(i);
      break;
    }
    out += fmt.slice(i, p);
    SPEC.lastIndex = p;
    const m = SPEC.exec(fmt)!;
    i = SPEC.lastIndex;
    const [, key, flags, widthS, precS, conv] = m;
    if (conv === "%" && key === undefined && !flags && !widthS && precS === undefined) {
      out += "%";
      continue;
    }
    if (conv === "") throw Fault.value("incomplete format");
    const at = pyLen(fmt.slice(0, SPEC.lastIndex - conv.length));
    // `%5%` and friends: Python only accepts a bare `%%`.
    if (conv === "%") throw unsupportedChar(conv, at);
    let value: Value;
    const width = widthS === "*" ? Number(asInt(take(), "* wants int")) : widthS ? Number(widthS) : 0;
    const prec = precS === "*" ? Number(asInt(take(), "* wants int")) : precS !== undefined ? Number(precS || "0") : null;
    if (key !== undefined) {
      if (!(args instanceof PyDict)) throw Fault.type("format requires a mapping");
      const v = args.get(key);
      if (v === undefined) throw new Fault("runtime/key", "KeyError", reprValue(key));
      value = v;
    } else {
      value = take();
    }
    out += pad(convert(conv, value, flags, prec, at), width, flags, conv);
  }
  if (next < list.length && !mapping) throw Fault.type("not all arguments converted during string formatting");
  rt.checkSize(out.length);
  return out;
}

function asInt(v: Value, msg: string): bigint {
  if (!isInt(v)) throw Fault.type(msg);
  return toBig(v);
}

function unsupportedChar(conv: string, at: number): Fault {
  return Fault.value(`unsupported format character '${conv}' (0x${conv.codePointAt(0)!.toString(16)}) at index ${at}`);
}

function convert(conv: string, v: Value, flags: string, prec: number | null, at: number): string {
  switch (conv) {
    case "s":
    case "r":
    case "a": {
      const s = conv === "s" ? strValue(v) : reprValue(v);
      return prec === null ? s : codePoints(s).slice(0, prec).join("");
    }
    case "d":
    case "i":
    case "u":
      return sign(intValue(v, conv, true), flags, (n) => intDigits(n, 10), prec);
    case "x":
    case "X":
    case "o": {
      const n = intValue(v, conv, false);
      const base = conv === "o" ? 8 : 16;
      const prefix = flags.includes("#") ? (conv === "o" ? "0o" : conv === "x" ? "0x" : "0X") : "";
      const s = sign(n, flags, (k) => prefix + intDigits(k, base), prec);
      return conv === "X" ? s.toUpperCase() : s;
    }
    case "e":
    case "E":
    case "f":
    case "F":
    case "g":
    case "G": {
      const x = floatValue(v);
      const p = prec ?? 6;
      const lower = conv.toLowerCase();
      let s = lower === "e" ? exponent(x, p) : lower === "f" ? fixed(x, p) : general(x, p, flags.includes("#"));
      if (!s.startsWith("-")) s = (flags.includes("+") ? "+" : flags.includes(" ") ? " " : "") + s;
      return conv === lower ? s : s.toUpperCase();
    }
    case "c":
      if (typeof v === "string" && codePoints(v).length === 1) return v;
      if (isInt(v)) return String.fromCodePoint(charCode(toBig(v)));
      throw Fault.type("%c requires int or char");
  }
  throw unsupportedChar(conv, at);
}

function sign(n: bigint, flags: string, digits: (n: bigint) => string, prec: number | null): string {
  let d = digits(n);
  if (prec !== null && d.length < prec) d = d.padStart(prec, "0");
  if (n < 0n) return "-" + d;
  return (flags.includes("+") ? "+" : flags.includes(" ") ? " " : "") + d;
}

function intValue(v: Value, conv: string, allowFloat: boolean): bigint {
  if (v instanceof Undefined) throw v.fault();
  if (isInt(v)) return toBig(v);
  if (typeof v === "number") {
    if (!allowFloat) throw Fault.type(`%${conv} format: an integer is required, not float`);
    if (!Number.isFinite(v)) throw new Fault("runtime/overflow", "OverflowError", "cannot convert float infinity to integer");
    return BigInt(Math.trunc(v));
  }
  throw Fault.type(`%${conv} format: ${allowFloat ? "a real number" : "an integer"} is required, not ${typeName(v)}`);
}

function floatValue(v: Value): number {
  if (v instanceof Undefined) throw v.fault();
  if (isNumber(v)) return toFloat(v);
  throw Fault.type(`must be real number, not ${typeName(v)}`);
}

/** Width padding: `-` left-aligns, `0` zero-fills numbers after their sign. */
function pad(s: string, width: number, flags: string, conv: string): string {
  const n = codePoints(s).length;
  if (n >= width) return s;
  if (flags.includes("-")) return s + " ".repeat(width - n);
  if (flags.includes("0") && "diuxXoeEfFgG".includes(conv)) {
    const m = /^([-+ ]?(?:0[xXo])?)(.*)$/.exec(s)!;
    return m[1] + "0".repeat(width - n) + m[2];
  }
  return " ".repeat(width - n) + s;
}
