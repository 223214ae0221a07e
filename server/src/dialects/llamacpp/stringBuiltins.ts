// The builtins of String (value.cpp: value_string_t::get_builtins), each usable as a filter and as
// a method. Their table lists `default` twice; the std::map initializer keeps the first, the shared
// default_value, so `'x'|default` (one argument) fails. Python's str methods not listed here
// (find, count, isdigit, splitlines, …) are missing: `s.find('x')` calls an Undefined.
import { Undefined, type Value } from "../../interpreter/kit";
import { stod, stoi } from "./cParse";
import { defaultValue, tojson } from "./commonBuiltins";
import type { Builtin, BuiltinTable } from "./functions";
import { sliceArgs, sliceIndices } from "./slice";
import {
  byteLength,
  capitalize,
  fromUtf8,
  isAscii,
  isStr,
  lowercase,
  mkStr,
  partsOf,
  strip,
  strOf,
  titlecase,
  uppercase,
  utf8,
  type LStr,
} from "./strings";
import { asBool, asFloat, asInt, asString, fault, notImplemented } from "./values";

const str = (v: Value) => strOf(v as LStr);

/** A filter that maps each part of a string (a step each). */
function transform(f: (s: LStr) => LStr): Builtin {
  return (a, rt) => {
    a.ensureVals(["string"]);
    const s = a.pos(0) as LStr;
    rt.tick(partsOf(s).length);
    return f(s);
  };
}

function stripper(left: boolean, right: boolean, checked: boolean): Builtin {
  return (a) => {
    if (checked) a.ensureVals(["string"]);
    else if (!isStr(a.pos(0))) throw fault("strip() first argument must be a string", "runtime/type");
    const chars = a.kwargOrPos("chars", 1);
    return strip(a.pos(0) as LStr, left, right, chars instanceof Undefined ? undefined : strOf(asString(chars)));
  };
}

/** split/rsplit: a separator is required in effect (" " by default, "" raises), maxsplit counts down. */
function splitter(fromRight: boolean): Builtin {
  const name = fromRight ? "rsplit" : "split";
  return (a) => {
    a.ensureCount(1, 3);
    if (!isStr(a.pos(0))) throw fault(`${name}() first argument must be a string`, "runtime/type");
    let s = str(a.pos(0));
    const delim = a.count > 1 ? strOf(asString(a.pos(1))) : " ";
    if (delim === "") throw fault("empty separator", "runtime/value");
    let maxsplit = a.count > 2 ? asInt(a.pos(2)) : -1n;
    const out: Value[] = [];
    for (
      let p = fromRight ? s.lastIndexOf(delim) : s.indexOf(delim);
      p >= 0 && maxsplit !== 0n;
      p = fromRight ? s.lastIndexOf(delim) : s.indexOf(delim)
    ) {
      out.push(fromRight ? s.slice(p + delim.length) : s.slice(0, p));
      s = fromRight ? s.slice(0, p) : s.slice(p + delim.length);
      maxsplit--;
    }
    out.push(s);
    return fromRight ? out.reverse() : out;
  };
}

const replace: Builtin = (a, rt) => {
  a.ensureVals(["string", "string", "string", "int"], [true, true, true, false]);
  const [s, from, to] = [0, 1, 2].map((i) => str(a.pos(i)));
  if (a.count > 3 && asInt(a.pos(3)) > 0n) throw notImplemented("String replace with count argument not implemented");
  if (from === to) return s;
  // Refuse a result beyond the output limit before building it (the count of `from` bounds it).
  const pieces = from === "" ? byteLength(s) + 1 : s.split(from).length - 1;
  rt.checkSize(s.length + pieces * to.length);
  if (from !== "") return s.split(from).join(to);
  // An empty needle inserts `to` around every byte, which splits multi-byte characters.
  if (isAscii(s)) return to + Array.from(s, (c) => c + to).join("");
  const insert = utf8(to);
  const bytes = [...insert];
  for (const b of utf8(s)) bytes.push(b, ...insert);
  return fromUtf8(Uint8Array.from(bytes));
};

/** `'{} and {}'.format(a, b)`: only bare `{}`; arguments keep their parts. */
const format: Builtin = (a) => {
  const fmt = a.pos(0);
  if (!isStr(fmt)) throw fault("format() first argument must be a string", "runtime/type");
  const s = strOf(fmt);
  const parts: string[] = [];
  let literal = "";
  let arg = 1;
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== "{") {
      literal += s[i];
      continue;
    }
    if (s[i + 1] !== "}") throw notImplemented("format() only supports simple '{}' placeholders");
    i++;
    if (literal) parts.push(literal);
    literal = "";
    for (const p of partsOf(asString(a.pos(arg++)))) parts.push(p);
  }
  if (literal) parts.push(literal);
  return parts.length === 0 ? "" : mkStr(parts);
};

const toInt: Builtin = (a) => {
  const input = a.pos(0);
  const fallback = a.kwargOrPos("default", 1);
  const baseArg = a.kwargOrPos("base", 2);
  const base = baseArg instanceof Undefined ? 10 : Number(BigInt.asIntN(32, asInt(baseArg)));
  if (base !== 0 && (base < 2 || base > 36)) throw fault("int() base must be 0 or between 2 and 36", "runtime/value");
  if (!isStr(input)) throw fault("int() first argument must be a string", "runtime/type");
  const v = stoi(strOf(input), base);
  return v !== null ? BigInt(v) : fallback instanceof Undefined ? 0n : asInt(fallback);
};

const toFloat: Builtin = (a) => {
  a.ensureVals(["string"]);
  const fallback = a.kwargOrPos("default", 1);
  const v = stod(str(a.pos(0)));
  return v !== null ? v : fallback instanceof Undefined ? 0 : asFloat(fallback);
};

const slice: Builtin = (a) => {
  a.ensureCount(1, 4);
  a.ensureVals(["string", "int", "int", "int"], [true, true, false, false]);
  const [start, stop, step] = sliceArgs(a);
  const s = str(a.pos(0));
  if (isAscii(s))
    return sliceIndices(s.length, start, stop, step)
      .map((i) => s[i])
      .join("");
  const b = utf8(s);
  return fromUtf8(Uint8Array.from(sliceIndices(b.length, start, stop, step), (i) => b[i]));
};

/** `indent`: std::getline over the lines, so a leading empty line is swallowed unless `first`. */
const indent: Builtin = (a, rt) => {
  a.ensureCount(1, 4);
  const input = a.pos(0);
  const width = a.kwargOrPos("width", 1);
  const first = asBool(a.kwargOrPos("first", 2));
  const blank = asBool(a.kwargOrPos("blank", 3));
  if (!isStr(input)) throw fault("indent() first argument must be a string", "runtime/type");
  let pad = "    ";
  if (typeof width === "bigint") {
    rt.checkSize(Number(width));
    pad = " ".repeat(Math.max(0, Number(width)));
  } else if (isStr(width)) pad = strOf(width);
  const s = strOf(input);
  const lines = s === "" ? [] : s.split("\n");
  if (s.endsWith("\n")) lines.pop();
  rt.checkSize(s.length + (lines.length + 1) * pad.length);
  let out = "";
  for (const line of lines) {
    if (out !== "") out += "\n";
    if (out === "" ? first : line !== "" || blank) out += pad;
    out += line;
  }
  if (s.endsWith("\n")) out += "\n" + (blank ? pad : "");
  return out;
};

export const stringBuiltins: BuiltinTable = {
  default: defaultValue,
  upper: transform(uppercase),
  lower: transform(lowercase),
  strip: stripper(true, true, false),
  rstrip: stripper(false, true, true),
  lstrip: stripper(true, false, true),
  title: transform(titlecase),
  capitalize: transform(capitalize),
  length: (a) => {
    a.ensureVals(["string"]);
    return BigInt(byteLength(str(a.pos(0))));
  },
  startswith: (a) => {
    a.ensureVals(["string", "string"]);
    return str(a.pos(0)).startsWith(str(a.pos(1)));
  },
  endswith: (a) => {
    a.ensureVals(["string", "string"]);
    return str(a.pos(0)).endsWith(str(a.pos(1)));
  },
  split: splitter(false),
  rsplit: splitter(true),
  replace,
  format,
  int: toInt,
  float: toFloat,
  string: transform((s) => s),
  slice,
  safe: transform((s) => s),
  tojson,
  indent,
  join: () => {
    throw notImplemented("String join builtin not implemented");
  },
};
