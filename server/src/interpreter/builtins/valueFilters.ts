// Jinja2's filters on single values (numbers, defaults, conversion, JSON, pprint), plus HF
// transformers' `tojson`. Filters whose output is random are refused with runtime/not-reproduced
// rather than guessed.
import type { FilterFn } from "../dialect";
import { Fault } from "../errors";
import { pyAttribute } from "../python/access";
import { truthy } from "../python/compare";
import { jsonDumps } from "../python/jsonDumps";
import { intTrueDiv, isInt, isNumber, toBig, toFloat } from "../python/numbers";
import { reprValue } from "../python/repr";
import { pformat } from "../python/pformat";
import { pyRound } from "../python/round";
import { parsePyFloat, parsePyInt } from "../python/parseNumber";
import { formatValue } from "../python/formatSpec";
import { Undefined } from "../undefined";
import { Markup, Tuple, typeName, type Value } from "../values";
import { bind, opt } from "./args";

function strOf(v: Value): string | null {
  return typeof v === "string" ? v : v instanceof Markup ? v.s : null;
}

/** Python's int(v) / int(v, base), or null where it raises TypeError/ValueError (OverflowError is thrown). */
function toInt(v: Value, base: number): bigint | null {
  if (v instanceof Undefined) throw v.fault();
  const s = strOf(v);
  if (s !== null) return parsePyInt(s, base);
  if (isInt(v)) return toBig(v);
  if (typeof v === "number") {
    if (v === Infinity || v === -Infinity) throw infinityToInt();
    return Number.isNaN(v) ? null : BigInt(Math.trunc(v));
  }
  return null;
}

/**
 * do_int: int(v) (or int(v, base) for a string), else int(float(v)), else the default. Since 3.1.3
 * the OverflowError of int(float('1e10000')) also gives the default; 3.1.2 let it through
 * (`overflowRaises`). int() of an infinite float is an OverflowError in both.
 */
export function doInt(overflowRaises: boolean): FilterFn {
  return (_rt, v, a) => {
    const [dflt, baseV] = bind("do_int", ["default", "base"], a);
    const base = Number(opt(baseV, 10n));
    const direct = toInt(v, base);
    if (direct !== null) return direct;
    const f = toPyFloat(v);
    if (f !== null && Number.isFinite(f)) return BigInt(Math.trunc(f));
    if (overflowRaises && (f === Infinity || f === -Infinity)) throw infinityToInt();
    return opt(dflt, 0n);
  };
}

function infinityToInt(): Fault {
  return new Fault("runtime/overflow", "OverflowError", "cannot convert float infinity to integer");
}

/** Python's float(v), or null where it raises. */
function toPyFloat(v: Value): number | null {
  if (v instanceof Undefined) throw v.fault();
  const s = strOf(v);
  if (s !== null) return parsePyFloat(s);
  return isNumber(v) ? toFloat(v) : null;
}

function notReproduced(name: string, why: string): FilterFn {
  return () => {
    throw Fault.notReproduced(`the '${name}' filter is not reproduced: ${why}`);
  };
}

export const valueFilters: Record<string, FilterFn> = {
  abs: (_rt, v) => {
    if (typeof v === "number") return Math.abs(v);
    if (isInt(v)) {
      const n = toBig(v);
      return n < 0n ? -n : n;
    }
    throw Fault.type(`bad operand type for abs(): '${typeName(v)}'`);
  },
  attr: (rt, v, a) => {
    const [name] = bind("do_attr", ["name"], a, 1);
    const n = rt.str(name!);
    return pyAttribute(v, n, rt) === undefined && !(v instanceof Undefined) ? Undefined.member(v, n) : rt.getattr(v, n);
  },
  default: (_rt, v, a) => {
    const [dflt, boolean] = bind("do_default", ["default_value", "boolean"], a);
    return v instanceof Undefined || (truthy(opt(boolean, false)) && !truthy(v)) ? opt(dflt, "") : v;
  },
  filesizeformat: (_rt, v, a) => {
    const [binary] = bind("do_filesizeformat", ["binary"], a);
    const bytes = toPyFloat(v);
    if (bytes === null) {
      if (strOf(v) !== null) throw Fault.value(`could not convert string to float: ${reprValue(v)}`);
      throw Fault.type(`float() argument must be a string or a real number, not '${typeName(v)}'`);
    }
    const bin = truthy(opt(binary, false));
    const base = bin ? 1024 : 1000;
    const prefixes = bin ? ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"] : ["kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"];
    if (bytes === 1) return "1 Byte";
    if (bytes < base) return `${Math.trunc(bytes)} Bytes`;
    let i = 0;
    while (i < prefixes.length - 1 && bytes >= base ** (i + 2)) i++;
    return `${formatValue((base * bytes) / base ** (i + 2), ".1f")} ${prefixes[i]}`;
  },
  float: (_rt, v, a) => {
    const [dflt] = bind("do_float", ["default"], a);
    return toPyFloat(v) ?? opt(dflt, 0);
  },
  int: doInt(false),
  pprint: (_rt, v) => pformat(v),
  random: notReproduced("random", "its output is random"),
  round: (rt, v, a) => {
    const [precV, methodV] = bind("do_round", ["precision", "method"], a);
    const method = opt(methodV, "common");
    if (method !== "common" && method !== "ceil" && method !== "floor")
      throw new Fault("runtime/error", "FilterArgumentError", "method must be common, ceil or floor");
    const prec = opt(precV, 0n);
    if (!isInt(prec)) throw Fault.type(`'${typeName(prec)}' object cannot be interpreted as an integer`);
    const p = Number(toBig(prec));
    if (method === "common") {
      if (!isNumber(v)) throw Fault.type(`type ${typeName(v)} doesn't define __round__ method`);
      return isInt(v) ? (p >= 0 ? toBig(v) : BigInt(pyRound(Number(toBig(v)), p))) : pyRound(v, p);
    }
    // math.floor(value * 10**precision) / 10**precision, with Python's operators.
    const scaled = rt.dialect.ops.arith("*", v, p >= 0 ? 10n ** BigInt(p) : 10 ** p, rt);
    if (!isNumber(scaled)) throw Fault.type(`must be real number, not ${typeName(scaled)}`);
    if (Number.isNaN(scaled)) throw Fault.value("cannot convert float NaN to integer");
    if (scaled === Infinity || scaled === -Infinity)
      throw new Fault("runtime/overflow", "OverflowError", "cannot convert float infinity to integer");
    // math.ceil/floor return an int (exact, no negative zero), then int / int true division.
    const whole = isInt(scaled) ? toBig(scaled) : BigInt((method === "ceil" ? Math.ceil : Math.floor)(scaled as number));
    return p >= 0 ? intTrueDiv(whole, 10n ** BigInt(p)) : Number(whole) / 10 ** p;
  },
  tojson: (rt, v, a) => {
    const [ensureAscii, indent, separators, sortKeys] = bind("tojson", ["ensure_ascii", "indent", "separators", "sort_keys"], a);
    const ind = opt(indent, null);
    if (isInt(ind)) rt.checkSize(Number(toBig(ind)));
    const indentStr = ind === null ? null : typeof ind === "string" ? ind : isInt(ind) ? " ".repeat(Math.max(0, Number(toBig(ind)))) : null;
    rt.checkPrinted(v, indentStr?.length ?? 0);
    let itemSeparator = indentStr === null ? ", " : ",";
    let keySeparator = ": ";
    const seps = opt(separators, null);
    if (seps !== null) {
      const pair = Array.isArray(seps) ? seps : seps instanceof Tuple ? seps.items : null;
      if (!pair || pair.length !== 2) throw Fault.value("too many values to unpack (expected 2)");
      [itemSeparator, keySeparator] = pair.map((x) => strOf(x) ?? rt.str(x));
    }
    return jsonDumps(
      v,
      {
        ensureAscii: truthy(opt(ensureAscii, false)),
        indent: indentStr,
        itemSeparator,
        keySeparator,
        sortKeys: truthy(opt(sortKeys, false)),
      },
      (n) => rt.checkSize(n),
    );
  },
};
valueFilters.d = valueFilters.default;
