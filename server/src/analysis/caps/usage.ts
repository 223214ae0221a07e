// llama.cpp's value statistics (common/jinja: value_t::stats_t, set while ctx.is_get_stats), which its
// capability probe reads: a value is "used" when the template looks a variable up, reads a member
// of it or reaches it through a member access, filters it, tests it, loops over it, or passes it to
// tojson/string (which mark everything inside); `ops` names what was done to it (a filter or test
// name, "array_access", "object_access").
//
// The engine keeps stats on each value object. Here lists and dicts have identities, so they are
// tracked by identity, a member by (container, key); strings are JS primitives, so they are tracked
// by value — the probe asks by value only for strings it made unique. A string keeps its identity in
// the engine wherever it goes unchanged (bound to a name by set, a loop or a macro argument, handed
// out by get): here the member it was last read from stands for it, so reading it back through a
// name marks that member, as the engine marks the value object itself.
import {
  type CallArgs,
  Callable,
  type Dialect,
  type FilterFn,
  type Operators,
  PyDict,
  type TestFn,
  Tuple,
  type Value,
} from "../../interpreter";

type Key = string | number;

export class Usage {
  /** The context the dialect rendered with (after its own input conversion). */
  root: PyDict | null = null;
  /** The lists and dicts of the context, where its strings live (the template's own hold copies). */
  private readonly contextContainers = new WeakSet<object>();
  private readonly used = new WeakSet<object>();
  private readonly members = new WeakMap<object, Set<Key>>();
  private readonly objectOps = new WeakMap<object, Set<string>>();
  /** Dicts whose values were handed out without a member access (items(), values(), dictsort). */
  private readonly spread = new WeakSet<object>();
  private readonly strings = new Set<string>();
  private readonly stringOps = new Map<string, Set<string>>();
  /** The member each string was last read from (its identity in the engine, see the header). */
  private readonly origins = new Map<string, { container: object; key: Key }>();

  mark(v: Value): void {
    if (typeof v === "string") this.strings.add(v);
    else if (typeof v === "object" && v !== null) this.used.add(v);
  }

  op(v: Value, name: string): void {
    let set: Set<string> | undefined;
    if (typeof v === "string") {
      if (!(set = this.stringOps.get(v))) this.stringOps.set(v, (set = new Set()));
    } else if (typeof v === "object" && v !== null) {
      if (!(set = this.objectOps.get(v))) this.objectOps.set(v, (set = new Set()));
    } else {
      return;
    }
    set.add(name);
  }

  renderedWith(ctx: PyDict): void {
    this.root = ctx;
    const walk = (v: Value, depth: number): void => {
      if (depth > 64 || !(Array.isArray(v) || v instanceof PyDict) || this.contextContainers.has(v)) return;
      this.contextContainers.add(v);
      for (const x of Array.isArray(v) ? v : v.values()) walk(x, depth + 1);
    };
    walk(ctx, 0);
  }

  /**
   * `v` was handed to the template as it is stored at `container[key]`. A container the template
   * built holds a string that was read from the context before: that stays its origin.
   */
  readFrom(container: object, key: Key, v: Value): void {
    if (typeof v !== "string" || (!this.contextContainers.has(container) && this.origins.has(v))) return;
    this.origins.set(v, { container, key });
  }

  /** mark_used(v) on the value object itself: a string's member is used with it. */
  valueUsed(v: Value): void {
    this.mark(v);
    const o = typeof v === "string" ? this.origins.get(v) : undefined;
    if (o) this.member(o.container, o.key);
  }

  spreadOut(d: PyDict): void {
    this.spread.add(d);
  }

  member(container: object, key: Key): void {
    let keys = this.members.get(container);
    if (!keys) this.members.set(container, (keys = new Set()));
    keys.add(key);
  }

  /**
   * mark_used(v, deep = true): the value and everything inside it. A container met again at no smaller depth
   * marks nothing new, and skipping it keeps a value shared with itself (`[s, s]` forty times over: 2^40 paths,
   * 41 lists) from being walked path by path.
   */
  deep(v: Value, depth = 0, seen = new Map<object, number>()): void {
    this.mark(v);
    if (depth > 64) return;
    if (typeof v === "object" && v !== null) {
      const before = seen.get(v);
      if (before !== undefined && before <= depth) return;
      seen.set(v, depth);
    }
    const items = Array.isArray(v) ? v : v instanceof Tuple ? v.items : null;
    if (items) {
      items.forEach((x, i) => {
        this.member(v as object, i);
        this.deep(x, depth + 1, seen);
      });
    } else if (v instanceof PyDict) {
      for (const [k, x] of v.entries()) {
        if (typeof k === "string") this.member(v, k);
        this.deep(k, depth + 1, seen);
        this.deep(x, depth + 1, seen);
      }
    }
  }

  /** The value at `path` below the context, and the container holding it. */
  private resolve(path: readonly Key[]): { parent: object | null; value: Value | undefined } {
    let parent: object | null = null;
    let value: Value | undefined = this.root ?? undefined;
    for (const k of path) {
      parent = typeof value === "object" && value !== null ? value : null;
      value = value instanceof PyDict ? value.getStr(String(k)) : Array.isArray(value) && typeof k === "number" ? value[k] : undefined;
      if (value === undefined) return { parent, value };
    }
    return { parent, value };
  }

  /**
   * stats.used of the value at `path`. A string counts when an equal string was used and either
   * `byValue` (the probe made that string unique) or its dict's values were handed out, so the
   * template could only have got it from there or from an equal string elsewhere.
   */
  isUsed(path: readonly Key[], byValue = false): boolean {
    const { parent, value } = this.resolve(path);
    if (value === undefined) return false;
    if (parent && this.members.get(parent)?.has(path[path.length - 1])) return true;
    if (typeof value === "object" && value !== null) return this.used.has(value);
    return typeof value === "string" && this.strings.has(value) && (byValue || (parent !== null && this.spread.has(parent)));
  }

  hasOp(path: readonly Key[], op: string): boolean {
    const { value } = this.resolve(path);
    if (typeof value === "string") return this.stringOps.get(value)?.has(op) ?? false;
    return typeof value === "object" && value !== null && (this.objectOps.get(value)?.has(op) ?? false);
  }
}

let active: Usage | null = null;
/** >0 while a builtin runs: llama.cpp's builtins read values without touching their stats. */
let inBuiltin = 0;

/** Runs `f` (a render with an instrumented dialect), recording into `usage`. */
export function recordingUsage<T>(usage: Usage, f: () => T): T {
  const outer = active;
  active = usage;
  try {
    return f();
  } finally {
    active = outer;
  }
}

function recording(): Usage | null {
  return inBuiltin === 0 ? active : null;
}

function builtin<T>(f: () => T): T {
  inBuiltin++;
  try {
    return f();
  } finally {
    inBuiltin--;
  }
}

/** tojson and string mark their input recursively (value.cpp: mark_used(val_input, true)). */
const DEEP = new Set(["tojson", "string"]);
/** Builtins that hand a dict's values to the template as they are. */
const SPREADS = new Set(["items", "values", "dictsort"]);

function wrapFilters(table: Readonly<Record<string, FilterFn>>): Record<string, FilterFn> {
  const out: Record<string, FilterFn> = {};
  for (const [name, f] of Object.entries(table)) {
    // Arguments are passed on as they come, so hooks added to the interface reach the dialect.
    out[name] = (...args) => {
      const v = args[1];
      const u = recording();
      if (u) {
        if (DEEP.has(name)) u.deep(v);
        u.valueUsed(v);
        u.op(v, name);
        if (SPREADS.has(name) && v instanceof PyDict) u.spreadOut(v);
      }
      return builtin(() => f(...args));
    };
  }
  return out;
}

function wrapTests(table: Readonly<Record<string, TestFn>>): Record<string, TestFn> {
  const out: Record<string, TestFn> = {};
  for (const [name, t] of Object.entries(table)) {
    out[name] = (...args) => {
      const v = args[1];
      const u = recording();
      if (u) {
        u.valueUsed(v);
        u.op(v, `test_is_${name}`);
      }
      return builtin(() => t(...args));
    };
  }
  return out;
}

/** A member access: runtime.cpp member_expression marks the object, the key and the result. */
function accessed(u: Usage, obj: Value, key: Value, result: Value): void {
  const isIndex = typeof key === "bigint" || typeof key === "number";
  u.op(obj, isIndex ? "array_access" : "object_access");
  if (obj instanceof PyDict && typeof key === "string" && obj.has(key)) {
    u.member(obj, key);
    u.readFrom(obj, key, result);
  } else if (Array.isArray(obj) && isIndex) {
    const i = Number(key);
    u.member(obj, i < 0 ? obj.length + i : i);
    u.readFrom(obj, i < 0 ? obj.length + i : i, result);
  } else if (typeof key === "string") {
    // Not a member: the engine looks a builtin of that name up on the value.
    u.op(obj, key);
    if (SPREADS.has(key) && obj instanceof PyDict) u.spreadOut(obj);
  }
  u.valueUsed(obj);
  u.valueUsed(result);
}

/** `d.get(key)` gives the member itself, unmarked (value.cpp's object builtin `get`). */
function gotMember(u: Usage, d: PyDict, a: CallArgs, result: Value): void {
  const key = a.args[0];
  if (typeof key === "string" && d.getStr(key) === result) u.readFrom(d, key, result);
}

/** A dict's method as getattr gives it, telling `u` which member a call hands out. */
function watchedMethod(u: Usage, d: PyDict, method: Callable): Callable {
  const w = Object.create(method) as Callable;
  Object.defineProperty(w, "call", {
    value: (rt: unknown, a: CallArgs) => {
      const r = method.call(rt, a);
      gotMember(u, d, a, r);
      return r;
    },
  });
  return w;
}

function wrapOps(ops: Operators): Operators {
  const w: Operators = {
    ...ops,
    getattr: (...args) => {
      const u = recording();
      const r = ops.getattr(...args);
      if (!u) return r;
      accessed(u, args[0], args[1], r);
      const obj = args[0];
      return obj instanceof PyDict && r instanceof Callable && !obj.has(args[1]) ? watchedMethod(u, obj, r) : r;
    },
    getitem: (...args) => {
      const u = recording();
      const r = ops.getitem(...args);
      if (u) accessed(u, args[0], args[1], r);
      return r;
    },
  };
  const looped = (u: Usage | null, v: Value): void => {
    if (!u) return;
    u.mark(v);
    u.op(v, "array_access");
    if (v instanceof PyDict) u.op(v, "object_access");
    // The loop variable holds each item itself.
    if (Array.isArray(v)) v.forEach((x, i) => u.readFrom(v, i, x));
  };
  if (ops.loopItems) {
    const loopItems = ops.loopItems;
    w.loopItems = (...args) => {
      looped(recording(), args[0]);
      return builtin(() => loopItems(...args));
    };
  } else {
    // Without a loop hook the evaluator iterates for loops through `iterate`, as builtins do;
    // only calls from outside a builtin are loops.
    w.iterate = (...args) => {
      looped(recording(), args[0]);
      return builtin(() => Array.from(ops.iterate(...args)));
    };
  }
  if (ops.callMethod) {
    const callMethod = ops.callMethod;
    w.callMethod = (...args) => {
      const u = recording();
      if (u) {
        u.mark(args[0]);
        u.op(args[0], args[1]);
      }
      const r = callMethod(...args);
      if (u && args[0] instanceof PyDict) gotMember(u, args[0], args[2], r);
      return r;
    };
  }
  return w;
}

/** A context that records which of its variables the template looks up. */
class RecordedContext extends PyDict {
  constructor(
    private readonly usage: Usage,
    from: PyDict,
  ) {
    super();
    for (const [k, v] of from.entries()) this.set(k, v);
  }
  override getStr(k: string): Value | undefined {
    const v = super.getStr(k);
    if (v !== undefined) {
      this.usage.mark(v);
      this.usage.member(this.usage.root!, k);
      this.usage.readFrom(this.usage.root!, k, v);
    }
    return v;
  }
}

const instrumented = new WeakMap<Dialect, Dialect>();

/** The last few parses per dialect: an engine's own parser runs once per text, not once per use. */
const parses = new WeakMap<Dialect, Map<string, ReturnType<NonNullable<Dialect["parse"]>>>>();

export function parsedBy(d: Dialect, source: string): ReturnType<NonNullable<Dialect["parse"]>> | undefined {
  if (!d.parse) return undefined;
  let recent = parses.get(d);
  if (!recent) parses.set(d, (recent = new Map()));
  let r = recent.get(source);
  if (!r) {
    recent.set(source, (r = d.parse(source)));
    if (recent.size > 4) recent.delete(recent.keys().next().value!);
  }
  return r;
}

/**
 * The dialect with stats recording (inside `recordingUsage`; outside it the wrappers only pass
 * through), cached per dialect. Every analysis render of an engine goes through this one object,
 * so the interpreter prepares (and an engine's own parser parses) each template once.
 */
export function withUsageStats(d: Dialect): Dialect {
  let w = instrumented.get(d);
  if (!w) {
    w = {
      ...d,
      ...(d.parse ? { parse: (source: string) => parsedBy(d, source)! } : {}),
      ops: wrapOps(d.ops),
      filters: wrapFilters(d.filters),
      tests: wrapTests(d.tests),
      // identifier::execute_impl marks whatever a name holds, whoever bound it.
      variableRead: (v) => recording()?.valueUsed(v),
      context: (given) => {
        const ctx = d.context ? d.context(given) : given;
        if (!active) return ctx;
        active.renderedWith(ctx);
        return new RecordedContext(active, ctx);
      },
    };
    instrumented.set(d, w);
  }
  return w;
}
