// Python's str() and repr() of template values: what Jinja2 prints for `{{ x }}` and inside
// containers (`[1, 'a']`, `{'a': None}`, `(1,)`, `1e+16`). Primitives are handled here; every other
// value class prints itself through its `pyRepr`/`pyStr` hooks.
import { floatRepr } from "./floatRepr";
import { reprString } from "./text";
import type { Value } from "../values";

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
  // Python prints a memory address here; 0x0 keeps renders reproducible.
  return v.pyRepr?.(reprValue) ?? `<${v.typeName} object at 0x0>`;
}

/** Python's str(): like repr() except for strings themselves, Markup and Undefined (which prints ''). */
export function strValue(v: Value): string {
  if (typeof v === "string") return v;
  if (v !== null && typeof v === "object" && !Array.isArray(v) && v.pyStr) return v.pyStr();
  return reprValue(v);
}
