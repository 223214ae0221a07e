// Jinja2's filters over sequences and mappings (jinja2/filters.py, 3.1). Those that are
// generators in Jinja2 (map, select, reject, selectattr, rejectattr, items, unique, batch, slice,
// reverse on lists) return one-shot iterators here too, so `| length` or `| tojson` on them fail
// as they do in Python.
import type { FilterFn, Runtime } from "../dialect";
import { DictView, PyDict } from "../dict";
import { Fault } from "../errors";
import { eq, order, truthy } from "../python/compare";
import { len } from "../python/iterate";
import { arith } from "../python/ops";
import { codePoints } from "../python/text";
import { Undefined } from "../undefined";
import { Markup, PyIterator, PyRange, Tuple, typeName, type CallArgs, type Value } from "../values";
import { escapeValue } from "../python/markup";
import { attrGetter, ignoreCase, multiAttrGetter, type Getter } from "./attrGetter";
import { bind, opt } from "./args";

/** A Jinja2 generator filter (`qualname` is its Python function) or a builtin iterator type (`typeName`). */
function lazy(rt: Runtime, make: () => Iterable<Value>, qualname: string | null, typeName = "generator"): PyIterator {
  let it: Iterator<Value> | null = null;
  return new PyIterator(
    {
      next: () => {
        it ??= make()[Symbol.iterator]();
        rt.tick(1);
        return it.next();
      },
    },
    typeName,
    qualname,
  );
}

function sorted(rt: Runtime, items: Value[], key: (v: Value) => Value, reverse: boolean): Value[] {
  const keyed = items.map((v) => ({ v, k: key(v) }));
  rt.tick(keyed.length);
  keyed.sort((a, b) => (reverse ? order(b.k, a.k, "<") : order(a.k, b.k, "<")));
  return keyed.map((x) => x.v);
}

function caseKey(caseSensitive: Value): ((v: Value) => Value) | null {
  return truthy(caseSensitive) ? null : ignoreCase;
}

/** select/reject/selectattr/rejectattr (Jinja2's prepare_select_or_reject). */
function selectOrReject(rt: Runtime, value: Value, a: CallArgs, keep: boolean, byAttr: boolean): Value {
  return lazy(
    rt,
    function* () {
      if (!truthy(value)) return;
      let off = 0;
      let trans: Getter = (x) => x;
      if (byAttr) {
        if (a.args.length === 0) throw new Fault("runtime/error", "FilterArgumentError", "Missing parameter for attribute name");
        trans = attrGetter(rt, a.args[0]);
        off = 1;
      }
      const name = a.args[off];
      const rest = { args: a.args.slice(off + 1), kwargs: a.kwargs };
      const test = name === undefined ? truthy : (x: Value) => rt.test(rt.str(name), x, rest);
      for (const item of rt.iterate(value)) if (test(trans(item)) === keep) yield item;
    },
    "select_or_reject",
  );
}

function mapFilter(rt: Runtime, value: Value, a: CallArgs): Value {
  return lazy(
    rt,
    function* () {
      if (!truthy(value)) return;
      let fn: Getter;
      if (a.args.length === 0 && a.kwargs?.has("attribute")) {
        const kw = new Map(a.kwargs);
        const attribute = kw.get("attribute")!;
        const dflt = kw.get("default") ?? null;
        kw.delete("attribute");
        kw.delete("default");
        if (kw.size) throw new Fault("runtime/error", "FilterArgumentError", `Unexpected keyword argument '${kw.keys().next().value}'`);
        fn = attrGetter(rt, attribute, null, dflt);
      } else {
        if (a.args.length === 0) throw new Fault("runtime/error", "FilterArgumentError", "map requires a filter argument");
        const name = rt.str(a.args[0]);
        const rest = { args: a.args.slice(1), kwargs: a.kwargs };
        fn = (x) => rt.filter(name, x, rest);
      }
      for (const item of rt.iterate(value)) yield fn(item);
    },
    "sync_do_map",
  );
}

function minMax(rt: Runtime, value: Value, a: CallArgs, fname: string, sign: 1 | -1): Value {
  const [cs, attribute] = bind(fname, ["case_sensitive", "attribute"], a);
  const items = [...rt.iterate(value)];
  rt.tick(items.length);
  if (items.length === 0) return Undefined.hint("No aggregated item, sequence was empty.");
  const key = attrGetter(rt, opt(attribute, null), caseKey(opt(cs, false)));
  let best = items[0];
  let bestKey = key(best);
  for (let i = 1; i < items.length; i++) {
    const k = key(items[i]);
    // Python's min/max keep the first of equal items.
    if (sign * order(k, bestKey, sign > 0 ? ">" : "<") > 0) {
      best = items[i];
      bestKey = k;
    }
  }
  return best;
}

const GROUP_FIELDS = ["grouper", "list"];

export const sequenceFilters: Record<string, FilterFn> = {
  batch: (rt, value, a) => {
    const [count, fill] = bind("do_batch", ["linecount", "fill_with"], a, 1);
    const n = Number(count);
    // The last batch is padded to `linecount` items: refused before it is built.
    if (fill !== undefined && fill !== null) rt.checkSize(n);
    return lazy(
      rt,
      function* () {
        let tmp: Value[] = [];
        for (const item of rt.iterate(value)) {
          if (tmp.length === n) {
            yield tmp;
            tmp = [];
          }
          tmp.push(item);
        }
        if (tmp.length) {
          if (fill !== undefined && fill !== null && tmp.length < n) while (tmp.length < n) tmp.push(fill);
          yield tmp;
        }
      },
      "do_batch",
    );
  },
  dictsort: (rt, value, a) => {
    const [cs, by, reverse] = bind("do_dictsort", ["case_sensitive", "by", "reverse"], a);
    const pos = opt(by, "key") === "key" ? 0 : opt(by, "key") === "value" ? 1 : -1;
    if (pos < 0) throw new Fault("runtime/error", "FilterArgumentError", 'You can only sort by either "key" or "value"');
    if (value instanceof Undefined) throw value.fault();
    if (!(value instanceof PyDict))
      throw new Fault("runtime/type", "AttributeError", `'${typeName(value)}' object has no attribute 'items'`);
    const pairs: Value[] = [...value.entries()].map(([k, v]) => new Tuple([k, v]));
    const post = caseKey(opt(cs, false));
    return sorted(rt, pairs, (p) => (post ? post((p as Tuple).items[pos]) : (p as Tuple).items[pos]), truthy(opt(reverse, false)));
  },
  first: (rt, value) => {
    for (const x of rt.iterate(value)) return x;
    return Undefined.hint("No first item, sequence was empty.");
  },
  groupby: (rt, value, a) => {
    const [attribute, dflt, cs] = bind("sync_do_groupby", ["attribute", "default", "case_sensitive"], a, 1);
    const key = attrGetter(rt, attribute!, caseKey(opt(cs, false)), opt(dflt, null));
    const items = sorted(rt, [...rt.iterate(value)], key, false);
    const out: Value[] = [];
    let group: Value[] | null = null;
    let groupKey: Value = null;
    for (const item of items) {
      const k = key(item);
      if (group === null || !eq(k, groupKey)) {
        group = [];
        groupKey = k;
        out.push(new Tuple([k, group], GROUP_FIELDS, "_GroupTuple"));
      }
      group.push(item);
    }
    if (!truthy(opt(cs, false))) {
      const shown = attrGetter(rt, attribute!, null, opt(dflt, null));
      return out.map((g) => {
        const list = (g as Tuple).items[1] as Value[];
        return new Tuple([shown(list[0]), list], GROUP_FIELDS, "_GroupTuple");
      });
    }
    return out;
  },
  // A generator in Jinja2: even its type check waits until something iterates it.
  items: (rt, value) =>
    lazy(
      rt,
      function* () {
        if (value instanceof Undefined) return;
        if (!(value instanceof PyDict)) throw Fault.type("Can only get item pairs from a mapping.");
        for (const [k, v] of value.entries()) yield new Tuple([k, v]);
      },
      "do_items",
    ),
  join: (rt, value, a) => {
    const [d, attribute] = bind("sync_do_join", ["d", "attribute"], a);
    const get = attribute !== undefined && attribute !== null ? attrGetter(rt, attribute) : null;
    const items = [...rt.iterate(value)].map((x) => (get ? get(x) : x));
    rt.tick(items.length);
    // under autoescape, a Markup item makes the join escape the rest and the separator, and return Markup
    if (rt.autoescaping() && items.some((x) => x instanceof Markup)) {
      const s = items.map((x) => escapeValue(x, rt.str).s).join(escapeValue(opt(d, ""), rt.str).s);
      rt.checkSize(s.length);
      return new Markup(s);
    }
    const s = items.map((x) => rt.str(x)).join(rt.str(opt(d, "")));
    rt.checkSize(s.length);
    return s;
  },
  last: (rt, value) => {
    const reversible =
      typeof value === "string" ||
      Array.isArray(value) ||
      value instanceof PyDict ||
      value instanceof Tuple ||
      value instanceof Markup ||
      value instanceof Undefined ||
      value instanceof PyRange ||
      value instanceof DictView;
    if (!reversible) throw Fault.type(`'${typeName(value)}' object is not reversible`);
    const items = [...rt.iterate(value)];
    return items.length ? items[items.length - 1] : Undefined.hint("No last item, sequence was empty.");
  },
  length: (_rt, value) => BigInt(len(value)),
  list: (rt, value) => {
    const items = [...rt.iterate(value)];
    rt.tick(items.length);
    return items;
  },
  map: mapFilter,
  max: (rt, value, a) => minMax(rt, value, a, "do_max", 1),
  min: (rt, value, a) => minMax(rt, value, a, "do_min", -1),
  reject: (rt, value, a) => selectOrReject(rt, value, a, false, false),
  rejectattr: (rt, value, a) => selectOrReject(rt, value, a, false, true),
  reverse: (rt, value) => {
    if (typeof value === "string") return codePoints(value).reverse().join("");
    if (value instanceof Markup) return new Markup(codePoints(value.s).reverse().join(""));
    // reversed() fails on a generator, so Jinja2 falls back to a reversed list copy.
    if (value instanceof PyIterator) return [...value].reverse();
    if (value === null || typeof value !== "object") throw new Fault("runtime/error", "FilterArgumentError", "argument must be iterable");
    const items = [...rt.iterate(value)];
    const name = Array.isArray(value) ? "list_reverseiterator" : value instanceof PyDict ? "dict_reversekeyiterator" : "reversed";
    return lazy(rt, () => items.reverse(), null, name);
  },
  select: (rt, value, a) => selectOrReject(rt, value, a, true, false),
  selectattr: (rt, value, a) => selectOrReject(rt, value, a, true, true),
  slice: (rt, value, a) => {
    const [slicesV, fill] = bind("sync_do_slice", ["slices", "fill_with"], a, 1);
    const slices = Number(slicesV);
    // The result holds `slices` lists, however short the input.
    rt.checkSize(slices);
    const seq = [...rt.iterate(value)];
    return lazy(
      rt,
      function* () {
        const per = Math.floor(seq.length / slices);
        const extra = seq.length % slices;
        let offset = 0;
        for (let i = 0; i < slices; i++) {
          const start = offset + i * per;
          if (i < extra) offset++;
          const tmp = seq.slice(start, offset + (i + 1) * per);
          if (fill !== undefined && fill !== null && i >= extra) tmp.push(fill);
          yield tmp;
        }
      },
      "sync_do_slice",
    );
  },
  sort: (rt, value, a) => {
    const [reverse, cs, attribute] = bind("do_sort", ["reverse", "case_sensitive", "attribute"], a);
    const key = multiAttrGetter(rt, opt(attribute, null), caseKey(opt(cs, false)));
    return sorted(rt, [...rt.iterate(value)], key, truthy(opt(reverse, false)));
  },
  sum: (rt, value, a) => {
    const [attribute, start] = bind("sync_do_sum", ["attribute", "start"], a);
    const get = attribute !== undefined && attribute !== null ? attrGetter(rt, attribute) : null;
    let acc = opt(start, 0n);
    if (typeof acc === "string") throw Fault.type("sum() can't sum strings [use ''.join(seq) instead]");
    for (const x of rt.iterate(value)) {
      rt.tick(1);
      acc = arith("+", acc, get ? get(x) : x, rt);
    }
    return acc;
  },
  unique: (rt, value, a) => {
    const [cs, attribute] = bind("sync_do_unique", ["case_sensitive", "attribute"], a);
    const key = attrGetter(rt, opt(attribute, null), caseKey(opt(cs, false)));
    return lazy(
      rt,
      function* () {
        const seen = new PyDict();
        for (const item of rt.iterate(value)) {
          const k = key(item);
          if (!seen.has(k)) {
            seen.set(k, true);
            yield item;
          }
        }
      },
      "sync_do_unique",
    );
  },
};
sequenceFilters.count = sequenceFilters.length;
