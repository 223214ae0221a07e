// Python's dict: insertion-ordered, keys compared as Python compares them (1 == 1.0 == True,
// Markup('a') == 'a', tuples by value). JS Map keys by SameValueZero, so keys are normalised; the
// key as first written is kept aside only when it differs from its normal form, which for the
// string keys of chat-template data is never.
import { Fault } from "./errors";
import { Undefined } from "./undefined";
import { Markup, PyObject, Tuple, type Value } from "./values";

type Key = string | bigint | number | null | object | symbol;

const UNDEFINED_KEY = Symbol("Undefined");

function normKey(k: Value): Key {
  switch (typeof k) {
    case "string":
    case "bigint":
      return k;
    case "boolean":
      return k ? 1n : 0n;
    case "number":
      return Number.isInteger(k) ? BigInt(k) : k;
  }
  if (k === null) return null;
  if (Array.isArray(k) || k instanceof PyDict) throw Fault.type(`unhashable type: '${Array.isArray(k) ? "list" : "dict"}'`);
  if (k instanceof Markup) return k.s;
  if (k instanceof Tuple) return "\u0000(" + k.items.map((x) => keyString(normKey(x))).join(",") + ")";
  // Jinja2's Undefined hashes by its type and equals any other Undefined.
  if (k instanceof Undefined) return UNDEFINED_KEY;
  return k;
}

function keyString(k: Key): string {
  if (typeof k === "string") return JSON.stringify(k);
  if (typeof k === "bigint") return k.toString() + "n";
  return String(k);
}

export class PyDict extends PyObject {
  private readonly map = new Map<Key, Value>();
  private orig: Map<Key, Value> | null = null;

  get typeName(): string {
    return "dict";
  }

  get size(): number {
    return this.map.size;
  }

  /** Fast path for the overwhelmingly common string key. */
  getStr(k: string): Value | undefined {
    return this.map.get(k);
  }

  get(k: Value): Value | undefined {
    return this.map.get(typeof k === "string" ? k : normKey(k));
  }

  has(k: Value): boolean {
    return this.map.has(typeof k === "string" ? k : normKey(k));
  }

  set(k: Value, v: Value): void {
    if (typeof k === "string") {
      this.map.set(k, v);
      return;
    }
    const n = normKey(k);
    if (n !== k && !this.map.has(n)) (this.orig ??= new Map()).set(n, k);
    this.map.set(n, v);
  }

  delete(k: Value): boolean {
    const n = typeof k === "string" ? k : normKey(k);
    this.orig?.delete(n);
    return this.map.delete(n);
  }

  keys(): IterableIterator<Value> {
    // Without keys kept aside (string keys only), the Map's own iterators are the answer.
    return this.orig === null ? (this.map.keys() as IterableIterator<Value>) : this.originalKeys();
  }

  entries(): IterableIterator<[Value, Value]> {
    return this.orig === null ? (this.map.entries() as IterableIterator<[Value, Value]>) : this.originalEntries();
  }

  private *originalKeys(): IterableIterator<Value> {
    for (const k of this.map.keys()) yield this.original(k);
  }

  private *originalEntries(): IterableIterator<[Value, Value]> {
    for (const [k, v] of this.map) yield [this.original(k), v];
  }

  values(): IterableIterator<Value> {
    return this.map.values();
  }

  private original(k: Key): Value {
    if (this.orig !== null) {
      const o = this.orig.get(k);
      if (o !== undefined) return o;
    }
    return k as Value;
  }

  override pyRepr(repr: (v: Value) => string): string {
    const parts: string[] = [];
    for (const [k, x] of this.entries()) parts.push(`${repr(k)}: ${repr(x)}`);
    return "{" + parts.join(", ") + "}";
  }

  static from(entries: Iterable<[Value, Value]>): PyDict {
    const d = new PyDict();
    for (const [k, v] of entries) d.set(k, v);
    return d;
  }
}

/** `dict.keys()`, `.values()`, `.items()`: live views, iterable and sized but not subscriptable. */
export class DictView extends PyObject {
  constructor(
    readonly dict: PyDict,
    readonly kind: "keys" | "values" | "items",
  ) {
    super();
  }
  get typeName(): string {
    return "dict_" + this.kind;
  }
  override pyRepr(repr: (v: Value) => string): string {
    return `${this.typeName}([${[...this].map(repr).join(", ")}])`;
  }
  *[Symbol.iterator](): Iterator<Value> {
    for (const [k, v] of this.dict.entries()) {
      yield this.kind === "keys" ? k : this.kind === "values" ? v : new Tuple([k, v]);
    }
  }
}
