// @huggingface/jinja's filters (Interpreter.applyFilter): dispatched on the operand's type, and
// differently for `x | f` and `x | f(…)` — `x | length()` fails where `x | length` works, `x | default`
// fails where `x | default('d')` works — so a filter asks its node which form it was written in.
import type * as A from "../../parser";
import {
  Callable,
  type CallArgs,
  Fault,
  type FilterFn,
  LoopContext,
  Namespace,
  PyDict,
  type Runtime,
  Undefined,
  type Value,
} from "../../interpreter/kit";
import { compareValues, engineArgs, KwArgs, memberBuiltin } from "./builtins";
import { SET_BLOCK_FILTERS } from "./syntax";
import { hfTests } from "./tests";
import { arrayOf, display, entriesOf, floatString, intResult, isInt, isNumeric, joinPart, num, toJSON, truthy, typeOf } from "./values";

const err = (text: string) => new Fault("runtime/type", "Error", text);

const isContainer = (v: Value) => v instanceof PyDict || v instanceof Namespace || v instanceof LoopContext;

/** utils.ts getAttributeValue: a dotted path through dicts and list indices. */
function attributePath(item: Value, path: string): Value {
  let v = item;
  for (const part of path.split(".")) {
    if (isContainer(v)) v = entriesOf(v)!.find(([k]) => k === part)?.[1] ?? Undefined.member(v, part);
    else if (arrayOf(v)) {
      const i = parseInt(part, 10);
      const items = arrayOf(v)!;
      if (Number.isNaN(i) || i < 0 || i >= items.length) return Undefined.member(v, part);
      v = items[i];
    } else return Undefined.member(v, part);
  }
  return v;
}

/** Set semantics of `x.value` (SameValueZero on the JS values; objects by identity). */
function unique(items: readonly Value[]): Value[] {
  const seen = new Set<unknown>();
  return items.filter((x) => {
    const k = isInt(x) ? num(x) : x === null || x instanceof Undefined ? undefined : x;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function parseIntJs(s: string): number {
  return parseInt(s, 10);
}

/** `x | f` */
function plain(name: string, v: Value, rt: Runtime): Value {
  if (name === "safe") return v;
  if (name === "tojson") {
    rt.checkPrinted(v);
    return toJSON(v, {});
  }
  const items = arrayOf(v);
  if (items) {
    switch (name) {
      case "list":
        return v;
      case "first":
      case "last":
        // `value[0]` of an empty list is a bare JS undefined: a TypeError where it is used, an
        // undefined once a `set` has stored it; which one happens depends on its use.
        if (items.length === 0)
          throw Fault.notReproduced(`\`${name}\` of an empty list is a JavaScript undefined in the engine (a crash where it is used)`);
        return name === "first" ? items[0] : items[items.length - 1];
      case "length":
        return BigInt(items.length);
      case "reverse":
        return [...items].reverse();
      case "sort":
        return [...items].sort((a, b) => compareValues(a, b, false));
      case "join":
        rt.checkPrinted(v);
        return items.map(joinPart).join("");
      case "string":
        rt.checkPrinted(v);
        return toJSON(v, {}, 0, false);
      case "unique":
        return unique(items);
    }
    throw err(`Unknown ArrayValue filter: ${name}`);
  }
  if (typeof v === "string") {
    switch (name) {
      case "length":
      case "upper":
      case "lower":
      case "title":
      case "capitalize": {
        const b = memberBuiltin(v, name)!;
        return b instanceof Callable ? b.call(rt, { args: [], kwargs: null }) : b;
      }
      case "trim":
        return v.trim();
      case "indent":
        return v
          .split("\n")
          .map((x, i) => (i === 0 || x.length === 0 ? x : "    " + x))
          .join("\n");
      case "join":
      case "string":
        return v;
      case "int": {
        const n = parseIntJs(v);
        return Number.isNaN(n) ? 0n : intResult(n);
      }
      case "float": {
        const n = parseFloat(v);
        return Number.isNaN(n) ? 0 : n;
      }
    }
    throw err(`Unknown StringValue filter: ${name}`);
  }
  if (isNumeric(v)) {
    switch (name) {
      case "abs":
        return typeof v === "number" ? Math.abs(v) : intResult(Math.abs(num(v)));
      case "int":
        return intResult(Math.trunc(num(v)) + 0);
      case "float":
        return num(v);
      case "string":
        return typeof v === "number" ? floatString(v) : display(v);
    }
    throw err(`Unknown NumericValue filter: ${name}`);
  }
  if (v instanceof PyDict || v instanceof LoopContext) {
    if (name === "items") return entriesOf(v)!.map(([k, x]) => [k, x]);
    if (name === "length") return BigInt(entriesOf(v)!.length);
    const b = memberBuiltin(v, name);
    if (b instanceof Callable) return b.call(rt, { args: [], kwargs: null });
    if (b !== undefined) return b;
    throw err(`Unknown ObjectValue filter: ${name}`);
  }
  if (typeof v === "boolean") {
    switch (name) {
      case "bool":
        return v;
      case "int":
        return v ? 1n : 0n;
      case "float":
        return v ? 1 : 0;
      case "string":
        return String(v);
    }
    throw err(`Unknown BooleanValue filter: ${name}`);
  }
  throw err(`Cannot apply filter "${name}" to type: ${typeOf(v)}`);
}

function tojson(rt: Runtime, v: Value, a: CallArgs): Value {
  const kw = a.kwargs ?? new Map<string, Value>();
  const indent = kw.get("indent") ?? null;
  if (!(typeof indent === "bigint" || indent === null)) throw err("If set, indent must be a number");
  const ensureAscii = kw.get("ensure_ascii") ?? false;
  if (typeof ensureAscii !== "boolean") throw err("If set, ensure_ascii must be a boolean");
  const sortKeys = kw.get("sort_keys") ?? false;
  if (typeof sortKeys !== "boolean") throw err("If set, sort_keys must be a boolean");
  const sepArg = kw.get("separators") ?? null;
  let separators: [string, string] | null = null;
  if (arrayOf(sepArg)) {
    const s = arrayOf(sepArg)!;
    if (s.length !== 2 || typeof s[0] !== "string" || typeof s[1] !== "string") throw err("separators must be a tuple of two strings");
    separators = [s[0], s[1]];
  } else if (sepArg !== null) throw err("If set, separators must be a tuple of two strings");
  const width = indent === null ? 0 : Math.max(0, Number(indent));
  rt.checkSize(width);
  rt.checkPrinted(v, width);
  return toJSON(v, { indent: indent === null ? null : Number(indent), ensureAscii, sortKeys, separators });
}

function selectattr(select: boolean, v: readonly Value[], a: CallArgs, node: A.Filter | undefined): Value {
  const name = select ? "selectattr" : "rejectattr";
  if (v.some((x) => !isContainer(x))) throw err(`\`${name}\` can only be applied to array of objects`);
  if (!node || node.kwargs.length || node.args.some((x) => x.kind !== "Str")) throw err(`arguments of \`${name}\` must be strings`);
  const [attr, testName, value] = a.args as string[];
  let test: (x: Value) => boolean = truthy;
  if (testName !== undefined) {
    const t = Object.hasOwn(hfTests, testName) ? hfTests[testName] : undefined;
    if (!t) throw err(`Unknown test: ${testName}`);
    test = (x) => t(x, value);
  }
  return v.filter((item) => {
    const found = entriesOf(item)!.find(([k]) => k === attr)?.[1];
    return (found !== undefined && test(found)) === select;
  });
}

/** `x | f(…)` */
function called(name: string, v: Value, a: CallArgs, node: A.Filter | undefined, rt: Runtime): Value {
  const arg = (i: number, kw: string) => a.args[i] ?? a.kwargs?.get(kw);
  switch (name) {
    case "tojson":
      return tojson(rt, v, a);
    case "join": {
      const parts = typeof v === "string" ? Array.from(v) : arrayOf(v)?.map(joinPart);
      if (!parts) throw err(`Cannot apply filter "join" to type: ${typeOf(v)}`);
      const sep = arg(0, "separator") ?? "";
      if (typeof sep !== "string") throw err("separator must be a string");
      return parts.join(sep);
    }
    case "int":
    case "float": {
      const dflt = arg(0, "default") ?? (name === "int" ? 0n : 0);
      if (typeof v === "string") {
        const n = name === "int" ? parseIntJs(v) : parseFloat(v);
        return Number.isNaN(n) ? dflt : name === "int" ? intResult(n) : n;
      }
      if (isNumeric(v)) return name === "int" ? intResult(Math.trunc(num(v)) + 0) : num(v);
      if (typeof v === "boolean") return name === "int" ? (v ? 1n : 0n) : v ? 1 : 0;
      throw err(`Cannot apply filter "${name}" to type: ${typeOf(v)}`);
    }
    case "default": {
      const dflt = a.args[0] ?? "";
      const boolean = a.args[1] ?? a.kwargs?.get("boolean") ?? false;
      if (typeof boolean !== "boolean") throw err("`default` filter flag must be a boolean");
      return v instanceof Undefined || (boolean && !truthy(v)) ? dflt : v;
    }
  }
  const items = arrayOf(v);
  if (items) {
    switch (name) {
      case "sort": {
        const reverse = arg(0, "reverse") ?? false;
        if (typeof reverse !== "boolean") throw err("reverse must be a boolean");
        const cs = arg(1, "case_sensitive") ?? false;
        if (typeof cs !== "boolean") throw err("case_sensitive must be a boolean");
        const attr = arg(2, "attribute") ?? null;
        if (!(typeof attr === "string" || typeof attr === "bigint" || attr === null))
          throw err("attribute must be a string, integer, or null");
        const key = (x: Value) => (attr === null ? x : attributePath(x, String(attr)));
        return [...items].sort((x, y) => (reverse ? -1 : 1) * compareValues(key(x), key(y), cs));
      }
      case "selectattr":
      case "rejectattr":
        return selectattr(name === "selectattr", items, a, node);
      case "map": {
        if (!a.kwargs?.has("attribute")) throw err("`map` expressions without `attribute` set are not currently supported.");
        const attr = a.kwargs.get("attribute");
        if (typeof attr !== "string") throw err("attribute must be a string");
        const dflt = a.kwargs.get("default");
        return items.map((x) => {
          if (!isContainer(x)) throw err("items in map must be an object");
          const r = attributePath(x, attr);
          return r instanceof Undefined ? (dflt ?? r) : r;
        });
      }
    }
    throw err(`Unknown ArrayValue filter: ${name}`);
  }
  if (typeof v === "string") {
    if (name === "indent") {
      const width = arg(0, "width") ?? 4n;
      if (!(typeof width === "bigint" || typeof width === "string")) throw err("width must be an integer or a string");
      const first = truthy(arg(1, "first") ?? false);
      const blank = truthy(arg(2, "blank") ?? false);
      const pad = typeof width === "string" ? width : " ".repeat(Math.max(0, Number(width)));
      return v
        .split("\n")
        .map((x, i) => ((!first && i === 0) || (!blank && x.length === 0) ? x : pad + x))
        .join("\n");
    }
    if (name === "replace") {
      const kw = new KwArgs();
      for (const [k, x] of a.kwargs ?? []) kw.set(k, x);
      return (memberBuiltin(v, "replace") as Callable).call(rt, { args: [...a.args, kw], kwargs: null });
    }
    throw err(`Unknown StringValue filter: ${name}`);
  }
  if (v instanceof PyDict || v instanceof LoopContext) {
    const b = memberBuiltin(v, name);
    if (b instanceof Callable) return b.call(rt, { args: engineArgs(a), kwargs: null });
    throw err(`Unknown ObjectValue filter: ${name}`);
  }
  throw err(`Cannot apply filter "${name}" to type: ${typeOf(v)}`);
}

/** Whether the filter was written with parentheses (its node ends after its name). */
function withParens(node: A.Filter | undefined, a: CallArgs): boolean {
  return node ? node.end > node.nameSpan.end : a.args.length > 0 || !!a.kwargs;
}

/** One entry per name the engine knows in some form; the dispatch above decides the rest. */
const NAMES = [
  "safe",
  "tojson",
  "list",
  "first",
  "last",
  "length",
  "reverse",
  "sort",
  "join",
  "string",
  "unique",
  "upper",
  "lower",
  "title",
  "capitalize",
  "trim",
  "indent",
  "int",
  "float",
  "abs",
  "items",
  "bool",
  "default",
  "selectattr",
  "rejectattr",
  "map",
  "replace",
  "dictsort",
  "get",
  "keys",
  "values",
];

export const hfFilters: Readonly<Record<string, FilterFn>> = Object.fromEntries(
  NAMES.map((name) => [
    name,
    ((rt: Runtime, v: Value, a: CallArgs, node?: A.Filter) => {
      if (node && SET_BLOCK_FILTERS.has(node)) throw err("Invalid LHS inside assignment expression");
      return withParens(node, a) ? called(name, v, a, node, rt) : plain(name, v, rt);
    }) as FilterFn,
  ]),
);
