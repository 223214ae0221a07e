// Jinja2's make_attrgetter: `attribute='a.b.0'` looks up each dotted part as an item (digits as
// ints), the way sort/groupby/map/selectattr/sum/unique/min/max find what to work on.
import { Undefined } from "../undefined";
import type { Runtime } from "../dialect";
import type { Value } from "../values";

export type Getter = (item: Value) => Value;

function parts(attribute: Value): Value[] {
  if (attribute === null) return [];
  if (typeof attribute === "string") return attribute.split(".").map((p) => (/^\d+$/.test(p) ? BigInt(p) : p));
  return [attribute];
}

export function attrGetter(rt: Runtime, attribute: Value, postprocess: ((v: Value) => Value) | null = null, dflt: Value = null): Getter {
  const ps = parts(attribute);
  return (item) => {
    for (const p of ps) {
      item = rt.getitem(item, p);
      if (dflt !== null && item instanceof Undefined) item = dflt;
    }
    return postprocess ? postprocess(item) : item;
  };
}

/** `attribute='age,name'`: one getter per comma-separated path, as sort does. */
export function multiAttrGetter(rt: Runtime, attribute: Value, postprocess: ((v: Value) => Value) | null): (item: Value) => Value[] {
  const getters = (typeof attribute === "string" ? attribute.split(",") : [attribute]).map((a) => attrGetter(rt, a, postprocess));
  return (item) => getters.map((g) => g(item));
}

/** Jinja2's ignore_case: strings compare lower-cased unless case_sensitive. */
export function ignoreCase(v: Value): Value {
  return typeof v === "string" ? v.toLowerCase() : v;
}
