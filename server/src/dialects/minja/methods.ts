// `x.name(args)` in minja is its own node (MethodCallExpr): a fixed set of methods per type, then a
// callable stored under that key of an object, else "Unknown method: name" (micro:keys-values,
// micro:find-count-methods, corpus tencent-Hy3 `.format`). String methods work on ASCII/bytes.
import { Callable, type CallArgs, Fault, LoopContext, PyDict, type Runtime, Tuple, type Value } from "../../interpreter/kit";
import { expectArgs } from "./args";
import { asInt, asString, repr } from "./coerce";
import { arrayItems, bytesOf, byteLength, eq, isHashable, isMinjaNull, isObject, objectEntries, textOf } from "./values";

type MinjaMethod = (self: Value, a: CallArgs, rt: Runtime) => Value;

/** std::isspace in the C locale. */
const C_SPACE = new Set([0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d]);

export const asciiUpper = (s: string) => s.replace(/[a-z]+/g, (m) => m.toUpperCase());
export const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/** minja's `strip(s, chars, left, right)`: by bytes, default set " \t\n\r". */
export function stripBytes(s: string, chars: string, left: boolean, right: boolean): string {
  const set = new Set(bytesOf(chars === "" ? " \t\n\r" : chars));
  const b = bytesOf(s);
  let i = 0;
  let j = b.length;
  if (left) while (i < j && set.has(b[i])) i++;
  if (i === b.length) return "";
  if (right) while (j > i && set.has(b[j - 1])) j--;
  return textOf(b.subarray(i, j));
}

function stripMethod(left: boolean, right: boolean, name: string): MinjaMethod {
  return (self, a) => {
    expectArgs(`${name} method`, a, [0, 1], [0, 0]);
    return stripBytes(self as string, a.args.length ? asString(a.args[0]) : "", left, right);
  };
}

function oneString(name: string, a: CallArgs): string {
  expectArgs(`${name} method`, a, [1, 1], [0, 0]);
  return asString(a.args[0]);
}

const noArgs =
  (name: string, f: (s: string) => Value): MinjaMethod =>
  (self, a) => {
    expectArgs(`${name} method`, a, [0, 0], [0, 0]);
    return f(self as string);
  };

const STR: Readonly<Record<string, MinjaMethod>> = {
  strip: stripMethod(true, true, "strip"),
  lstrip: stripMethod(true, false, "lstrip"),
  rstrip: stripMethod(false, true, "rstrip"),
  split: (self, a) => {
    const sep = oneString("split", a);
    if (sep === "") throw Fault.notReproduced("minja loops forever splitting on an empty separator");
    return (self as string).split(sep);
  },
  capitalize: noArgs("capitalize", (s) => asciiUpper(s.slice(0, 1)) + s.slice(1)),
  upper: noArgs("upper", asciiUpper),
  lower: noArgs("lower", asciiLower),
  endswith: (self, a) => (self as string).endsWith(oneString("endswith", a)),
  startswith: (self, a) => (self as string).startsWith(oneString("startswith", a)),
  title: noArgs("title", (s) => {
    let out = "";
    for (let i = 0; i < s.length; i++) {
      const first = i === 0 || C_SPACE.has(s.charCodeAt(i - 1));
      out += first ? asciiUpper(s[i]) : asciiLower(s[i]);
    }
    return out;
  }),
  replace: (self, a, rt) => {
    expectArgs("replace method", a, [2, 3], [0, 0]);
    const str = self as string;
    const before = asString(a.args[0]);
    const after = asString(a.args[1]);
    const count = a.args.length === 3 ? asInt(a.args[2]) : BigInt(byteLength(str));
    if (before === "" && /[^\x00-\x7f]/.test(str + after)) throw Fault.notReproduced("minja inserts by byte offsets here");
    return replaceFirst(str, before, after, count, rt);
  },
};

/**
 * minja's replace loop (find from `pos`, splice, skip past the insertion, at most `count` times) in
 * one pass, its result refused before it is built when over the output limit. The search resumes
 * after what it inserted, so it meets the original string's occurrences left to right; an empty
 * `before` is found again right after each insertion, so it inserts `count` times at the start.
 */
function replaceFirst(str: string, before: string, after: string, count: bigint, rt: Runtime): string {
  if (count <= 0n) return str;
  if (before === "") {
    rt.checkSize(str.length + after.length * Number(count));
    return after.repeat(Number(count)) + str;
  }
  const at: number[] = [];
  for (let pos = str.indexOf(before); pos >= 0 && at.length < count; pos = str.indexOf(before, pos + before.length)) at.push(pos);
  rt.tick(at.length);
  rt.checkSize(str.length + at.length * (after.length - before.length));
  const out: string[] = [];
  let last = 0;
  for (const pos of at) {
    out.push(str.slice(last, pos), after);
    last = pos + before.length;
  }
  out.push(str.slice(last));
  return out.join("");
}

const LIST: Readonly<Record<string, MinjaMethod>> = {
  append: (self, a) => {
    expectArgs("append method", a, [1, 1], [0, 0]);
    mutable(self).push(a.args[0]);
    return null;
  },
  pop: (self, a) => {
    expectArgs("pop method", a, [0, 1], [0, 0]);
    const items = mutable(self);
    if (items.length === 0) throw Fault.type("pop from empty list");
    const ix = a.args.length ? a.args[0] : null;
    if (isMinjaNull(ix)) return items.pop()!;
    if (typeof ix !== "bigint") throw Fault.type(`pop index must be an integer: ${repr(ix)}`);
    const i = BigInt.asIntN(32, ix);
    if (i < 0n || i >= BigInt(items.length)) throw new Fault("runtime/index", null, `pop index out of range: ${repr(ix)}`);
    return items.splice(Number(i), 1)[0];
  },
  insert: (self, a) => {
    expectArgs("insert method", a, [2, 2], [0, 0]);
    const items = mutable(self);
    const i = asInt(a.args[0]);
    if (i < 0n || i > BigInt(items.length)) throw new Fault("runtime/index", null, "Index out of range for insert method");
    items.splice(Number(i), 0, a.args[1]);
    return null;
  },
};

function mutable(v: Value): Value[] {
  if (v instanceof Tuple) throw Fault.notReproduced("minja mutates this tuple (it has no immutable sequences)");
  return v as Value[];
}

/** Lookup by minja's key equality (nlohmann JSON ==). */
function find(obj: Value, key: Value): [Value, Value] | undefined {
  if (obj instanceof PyDict) {
    const v = obj.get(key);
    return v === undefined ? undefined : [key, v];
  }
  return objectEntries(obj)!.find(([k]) => eq(k, key));
}

const OBJECT: Readonly<Record<string, MinjaMethod>> = {
  items: (self, a) => {
    expectArgs("items method", a, [0, 0], [0, 0]);
    return objectEntries(self)!.map(([k, v]) => [k, v]);
  },
  keys: (self, a) => {
    expectArgs("keys method", a, [0, 0], [0, 0]);
    return objectEntries(self)!.map(([k]) => k);
  },
  get: (self, a) => {
    expectArgs("get method", a, [1, 2], [0, 0]);
    if (!isHashable(a.args[0])) throw Fault.type(`Unhashable type: ${repr(a.args[0])}`);
    return find(self, a.args[0])?.[1] ?? (a.args.length === 2 ? a.args[1] : null);
  },
  pop: (self, a) => {
    expectArgs("pop method", a, [1, 1], [0, 0]);
    const key = a.args[0];
    if (!isHashable(key)) throw Fault.type(`Unhashable type: ${repr(key)}`);
    if (!(self instanceof PyDict)) throw Fault.notReproduced("minja pops a key of this object");
    const v = self.get(key);
    if (v === undefined) throw new Fault("runtime/key", null, `Key not found: ${repr(key)}`);
    self.delete(key);
    return v;
  },
};

/** minja's `loop.cycle(…)` steps a counter on every call (not with the iteration, as Jinja2 does). */
const cycleCounters = new WeakMap<LoopContext, number>();

function cycle(loop: LoopContext, a: CallArgs): Value {
  if (a.args.length === 0 || a.kwargs?.size) throw Fault.type("cycle() expects at least 1 positional argument and no named arg");
  const i = cycleCounters.get(loop) ?? 0;
  if (i >= a.args.length) throw Fault.notReproduced("minja reads past the cycle() arguments here");
  cycleCounters.set(loop, (i + 1) % a.args.length);
  return a.args[i];
}

export function callMethod(obj: Value, name: string, a: CallArgs, rt: Runtime): Value {
  if (isMinjaNull(obj)) throw Fault.type(`Trying to call method '${name}' on null`);
  const table = arrayItems(obj) ? LIST : isObject(obj) ? OBJECT : typeof obj === "string" ? STR : null;
  const m = table && Object.hasOwn(table, name) ? table[name] : undefined;
  if (m) return m(obj, a, rt);
  if (obj instanceof LoopContext && name === "cycle") return cycle(obj, a);
  if (isObject(obj) && !(obj instanceof LoopContext)) {
    const hit = find(obj, name);
    if (hit) {
      if (!(hit[1] instanceof Callable)) throw Fault.type(`Property '${name}' is not callable`);
      return rt.call(hit[1], a);
    }
  }
  throw new Fault("runtime/unsupported", null, `Unknown method: ${name}`);
}
