// Template values, modelled on Python's, because the reference engine (Jinja2) runs templates on
// Python objects and prints them with str()/repr(). The mapping is chosen so the hot path stays on
// JS primitives: None → null, bool → boolean, int → bigint (exact, beyond 2^53), float → number,
// str → string, list → Array. Everything else is a class below, so a template can only ever reach
// what these classes expose — never a JS prototype, constructor or host object.
export type Value = null | boolean | bigint | number | string | Value[] | PyObject;

/** Base of the non-primitive values; `typeName` is Python's `type(x).__name__`. */
export abstract class PyObject {
  abstract get typeName(): string;
  /** Python's repr() where the type has its own; `repr` formats nested values. (A hook rather than a
   *  type switch in python/repr.ts, so repr.ts depends on this file alone and not on every value class.) */
  pyRepr?(repr: (v: Value) => string): string;
  /** Python's str() where it differs from repr() (Markup's text, Undefined's ''). */
  pyStr?(): string;
  /** Attributes of its own (`loop.index`, `ns.x`); undefined when it has no such attribute. */
  attr?(name: string): Value | undefined;
}

/** Python tuple (immutable); `fields` makes it a named tuple such as groupby's `_GroupTuple`. */
export class Tuple extends PyObject {
  constructor(
    readonly items: readonly Value[],
    readonly fields: readonly string[] | null = null,
    readonly name = "tuple",
  ) {
    super();
  }
  get typeName(): string {
    return this.name;
  }
  override pyRepr(repr: (v: Value) => string): string {
    const items = this.items.map(repr);
    return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
  }
  override attr(name: string): Value | undefined {
    const i = this.fields ? this.fields.indexOf(name) : -1;
    return i >= 0 ? this.items[i] : undefined;
  }
}

/** markupsafe.Markup: a str that is already escaped; `+` and `%` escape the other side. */
export class Markup extends PyObject {
  constructor(readonly s: string) {
    super();
  }
  get typeName(): string {
    return "Markup";
  }
  override pyRepr(repr: (v: Value) => string): string {
    return `Markup(${repr(this.s)})`;
  }
  override pyStr(): string {
    return this.s;
  }
}

/** Jinja2's `namespace()`: the one object a template may assign attributes to. */
export class Namespace extends PyObject {
  readonly attrs = new Map<string, Value>();
  get typeName(): string {
    return "Namespace";
  }
  override pyRepr(repr: (v: Value) => string): string {
    return `<Namespace {${[...this.attrs].map(([k, v]) => `${repr(k)}: ${repr(v)}`).join(", ")}}>`;
  }
  override attr(name: string): Value | undefined {
    return this.attrs.get(name);
  }
}

/** Python's range (what `range()` returns in Jinja2's sandbox; printed `range(0, 3)`). */
export class PyRange extends PyObject {
  constructor(
    readonly start: bigint,
    readonly stop: bigint,
    readonly step: bigint,
  ) {
    super();
  }
  get typeName(): string {
    return "range";
  }
  override pyRepr(): string {
    const { start, stop, step } = this;
    return step === 1n ? `range(${start}, ${stop})` : `range(${start}, ${stop}, ${step})`;
  }
  get length(): number {
    const { start, stop, step } = this;
    const n = step > 0n ? (stop - start + step - 1n) / step : (start - stop - step - 1n) / -step;
    return n > 0n ? Number(n) : 0;
  }
  at(i: number): bigint {
    return this.start + BigInt(i) * this.step;
  }
}

/**
 * A one-shot Python iterator (generator, reversed(), map object …): filters such as `map`,
 * `select` and `items` return these in Jinja2, so `| length` and `| tojson` fail on them and a
 * second pass over one sees nothing, exactly as in Python.
 */
export class PyIterator extends PyObject {
  constructor(
    private readonly source: Iterator<Value>,
    private readonly name = "generator",
    /** The generator function's name, which Python prints (`<generator object sync_do_map at …>`). */
    private readonly qualname: string | null = null,
  ) {
    super();
  }
  get typeName(): string {
    return this.name;
  }
  override pyRepr(): string {
    return this.qualname ? `<generator object ${this.qualname} at 0x0>` : `<${this.name} object at 0x0>`;
  }
  next(): IteratorResult<Value> {
    return this.source.next();
  }
  [Symbol.iterator](): Iterator<Value> {
    return this.source;
  }
}

export interface CallArgs {
  args: Value[];
  /** null when the call has no keyword arguments (the common case, kept allocation-free). */
  kwargs: Map<string, Value> | null;
}

/** Anything a template can call: builtins, bound methods, macros, a recursive loop. */
export abstract class Callable extends PyObject {
  abstract readonly name: string;
  /** `rt` is the interpreter's runtime (typed loosely here to keep values free of imports). */
  abstract call(rt: unknown, a: CallArgs): Value;
}

export function isList(v: Value): v is Value[] {
  return Array.isArray(v);
}

/** Python's `type(v).__name__`, used in error messages exactly as Python words them. */
export function typeName(v: Value): string {
  if (v === null) return "NoneType";
  switch (typeof v) {
    case "boolean":
      return "bool";
    case "bigint":
      return "int";
    case "number":
      return "float";
    case "string":
      return "str";
  }
  if (Array.isArray(v)) return "list";
  return v.typeName;
}
