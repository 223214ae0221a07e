// `tojson` as llama.cpp writes it (value.cpp: value_to_json_internal, tojson,
// json_ensure_ascii_preserving_format): key order as inserted, floats through `ostream <<` (6
// significant digits: 0.1 + 0.2 → 0.3, 1e20 → 1e+20), None and Undefined as null, functions as
// null, non-ASCII raw unless ensure_ascii. With an indent the item separator defaults to "," and
// every item goes on its own line, also at indent 0 (measured: micro:tojson-indent).
import { Undefined, type Value } from "../../interpreter/kit";
import { printfGeneral } from "./cDouble";
import { isStr, strOf } from "./strings";
import { asString, entriesOf, isArray, isObject, itemsOf, jsonString } from "./values";

export interface JsonLayout {
  /** -1: one line. */
  indent: number;
  itemSep: string;
  keySep: string;
}

export function toJson(v: Value, layout: JsonLayout, level = 0): string {
  if (v === null || v instanceof Undefined) return "null";
  switch (typeof v) {
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      return v.toString();
    case "number":
      return printfGeneral(v, 6);
  }
  if (isStr(v)) return jsonString(strOf(v));
  const { indent } = layout;
  const newline = indent >= 0 ? "\n" : "";
  const pad = (n: number) => (indent > 0 ? " ".repeat(n * indent) : "");
  const block = (open: string, close: string, items: string[]) =>
    items.length === 0
      ? open + close
      : `${open}${newline}${items.map((s) => pad(level + 1) + s).join(layout.itemSep + newline)}${newline}${pad(level)}${close}`;
  if (isArray(v))
    return block(
      "[",
      "]",
      itemsOf(v).map((x) => toJson(x, layout, level + 1)),
    );
  if (isObject(v)) {
    return block(
      "{",
      "}",
      entriesOf(v).map(([k, x]) => jsonString(strOf(asString(k))) + layout.keySep + toJson(x, layout, level + 1)),
    );
  }
  return "null";
}

/** ensure_ascii: every non-ASCII character inside a JSON string as \uXXXX (surrogate pairs beyond U+FFFF). */
export function ensureAscii(json: string): string {
  return json.replace(/[^\x00-\x7f]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}
