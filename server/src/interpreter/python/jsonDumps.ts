// Python's json.dumps, which HF transformers installs as the `tojson` filter of chat templates
// (ensure_ascii=False, indent, separators, sort_keys=False): Python's float repr, ", "/": "
// separators by default, "," with an indent, non-ASCII kept unless ensure_ascii.
import { PyDict } from "../dict";
import { Fault } from "../errors";
import { Undefined } from "../undefined";
import { Markup, Tuple, typeName, type Value } from "../values";
import { floatRepr } from "./floatRepr";
import { order } from "./compare";

export interface DumpsOptions {
  ensureAscii: boolean;
  /** null: one line; a number of spaces or a string per level. */
  indent: string | null;
  itemSeparator: string;
  keySeparator: string;
  sortKeys: boolean;
}

const SHORT: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

const NEEDS_ESCAPE = /["\\\x00-\x1f]/;

export function jsonString(s: string, ensureAscii: boolean): string {
  if (!ensureAscii && !NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  const re = ensureAscii ? /["\\\x00-\x1f\u007f-\uffff]/g : /["\\\x00-\x1f]/g;
  return '"' + s.replace(re, (c) => SHORT[c] ?? "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")) + '"';
}

function jsonFloat(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
  return floatRepr(x);
}

function keyString(k: Value): string {
  if (typeof k === "string") return k;
  if (k instanceof Markup) return k.s;
  if (typeof k === "boolean") return k ? "true" : "false";
  if (typeof k === "bigint") return k.toString();
  if (typeof k === "number") return jsonFloat(k);
  if (k === null) return "null";
  throw Fault.type(`keys must be str, int, float, bool or None, not ${typeName(k)}`);
}

export function jsonDumps(v: Value, o: DumpsOptions, checkSize: (n: number) => void): string {
  const seen = new Set<object>();
  const out: string[] = [];
  let size = 0;
  const emit = (s: string) => {
    size += s.length;
    checkSize(size);
    out.push(s);
  };
  const enc = (x: Value, level: number): void => {
    if (x === null) return emit("null");
    switch (typeof x) {
      case "boolean":
        return emit(x ? "true" : "false");
      case "bigint":
        return emit(x.toString());
      case "number":
        return emit(jsonFloat(x));
      case "string":
        return emit(jsonString(x, o.ensureAscii));
    }
    if (x instanceof Markup) return emit(jsonString(x.s, o.ensureAscii));
    const isList = Array.isArray(x) || x instanceof Tuple;
    if (!isList && !(x instanceof PyDict)) {
      if (x instanceof Undefined) throw Fault.type("Object of type Undefined is not JSON serializable");
      throw Fault.type(`Object of type ${typeName(x)} is not JSON serializable`);
    }
    if (seen.has(x)) throw Fault.value("Circular reference detected");
    seen.add(x);
    const nl = o.indent === null ? "" : "\n" + o.indent.repeat(level + 1);
    const close = o.indent === null ? "" : "\n" + o.indent.repeat(level);
    if (isList) {
      const items = Array.isArray(x) ? x : (x as Tuple).items;
      if (items.length === 0) emit("[]");
      else {
        emit("[" + nl);
        items.forEach((item, i) => {
          if (i > 0) emit(o.itemSeparator + nl);
          enc(item, level + 1);
        });
        emit(close + "]");
      }
    } else {
      let entries = [...(x as PyDict).entries()];
      if (o.sortKeys) entries = entries.sort((a, b) => order(a[0], b[0], "<"));
      if (entries.length === 0) emit("{}");
      else {
        emit("{" + nl);
        entries.forEach(([k, val], i) => {
          if (i > 0) emit(o.itemSeparator + nl);
          emit(jsonString(keyString(k), o.ensureAscii) + o.keySeparator);
          enc(val, level + 1);
        });
        emit(close + "}");
      }
    }
    seen.delete(x);
  };
  enc(v, 0);
  return out.join("");
}
