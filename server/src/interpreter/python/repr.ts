// Python's str() and repr() of template values: what Jinja2 prints for `{{ x }}` and inside
// containers (`[1, 'a']`, `{'a': None}`, `(1,)`, `1e+16`).
import { PyDict } from "../dict";
import { floatRepr } from "./floatRepr";
import { reprString } from "./text";
import { Undefined } from "../undefined";
import { DictView, Markup, Namespace, PyRange, Tuple, type Value } from "../values";

export function reprValue(v: Value): string {
  switch (typeof v) {
    case "string":
      return reprString(v);
    case "boolean":
      return v ? "True" : "False";
    case "bigint":
      return v.toString();
    case "number":
      return floatRepr(v);
  }
  if (v === null) return "None";
  if (Array.isArray(v)) return "[" + v.map(reprValue).join(", ") + "]";
  if (v instanceof Tuple) {
    const items = v.items.map(reprValue);
    return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
  }
  if (v instanceof PyDict) return reprDict(v);
  if (v instanceof Markup) return `Markup(${reprString(v.s)})`;
  if (v instanceof Undefined) return "Undefined";
  if (v instanceof Namespace) return `<Namespace ${reprDict(PyDict.from(v.attrs))}>`;
  if (v instanceof PyRange) return v.step === 1n ? `range(${v.start}, ${v.stop})` : `range(${v.start}, ${v.stop}, ${v.step})`;
  if (v instanceof DictView) return `${v.typeName}([${[...v].map(reprValue).join(", ")}])`;
  // Python prints a memory address here; 0x0 keeps renders reproducible.
  return v.pyRepr?.(reprValue) ?? `<${v.typeName} object at 0x0>`;
}

function reprDict(d: PyDict): string {
  const parts: string[] = [];
  for (const [k, x] of d.entries()) parts.push(`${reprValue(k)}: ${reprValue(x)}`);
  return "{" + parts.join(", ") + "}";
}

/** Python's str(): like repr() except for strings themselves and Undefined (which prints ''). */
export function strValue(v: Value): string {
  if (typeof v === "string") return v;
  if (v instanceof Markup) return v.s;
  if (v instanceof Undefined) return "";
  return reprValue(v);
}
