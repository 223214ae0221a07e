// llama.cpp's func_args (value.h / value.cpp): one list in call order where a keyword argument is a
// KwArg value in its place, so positions count keyword arguments too (`default(boolean=true)` has
// two arguments). The checks and their messages are the engine's, including the mangled C++ type
// names ensure_val prints ("expected value of type St10shared_ptrIN5jinja11value_int_tEE").
import { type CallArgs, Undefined, type Value } from "../../interpreter/kit";
import { isStr } from "./strings";
import { fault, isArray, isObject, KwArg, typeOf, undef } from "./values";

export type ValueKind = "int" | "float" | "string" | "bool" | "array" | "object";

const IS: Record<ValueKind, (v: Value) => boolean> = {
  int: (v) => typeof v === "bigint",
  float: (v) => typeof v === "number",
  string: isStr,
  bool: (v) => typeof v === "boolean",
  array: isArray,
  object: isObject,
};

function mangled(kind: ValueKind): string {
  const t = `value_${kind}_t`;
  return `St10shared_ptrIN5jinja${t.length}${t}EE`;
}

export class LArgs {
  constructor(
    readonly list: readonly Value[],
    /** What the engine calls the function in messages ('' for a test called directly). */
    readonly name: string,
  ) {}

  /** The interpreter's call (positional, then keywords in order), with `self` first when bound. */
  static from(a: CallArgs, name: string, self?: Value): LArgs {
    const list: Value[] = self === undefined ? [...a.args] : [self, ...a.args];
    if (a.kwargs) for (const [k, v] of a.kwargs) list.push(new KwArg(k, v));
    return new LArgs(list, name);
  }

  get count(): number {
    return this.list.length;
  }

  pos(i: number): Value {
    if (i < this.list.length) return this.list[i];
    throw fault(`Function '${this.name}' expected at least ${i + 1} arguments, got ${this.list.length}`);
  }

  posOr(i: number, fallback: Value): Value {
    return i < this.list.length ? this.list[i] : fallback;
  }

  kwarg(key: string, fallback: Value): Value {
    for (const v of this.list) if (v instanceof KwArg && v.key === key) return v.value;
    return fallback;
  }

  /** get_kwarg_or_pos: the keyword, else a positional argument there that is not a keyword. */
  kwargOrPos(key: string, i: number): Value {
    const v = this.kwarg(key, undef());
    if (!(v instanceof Undefined)) return v;
    return i < this.list.length && !(this.list[i] instanceof KwArg) ? this.list[i] : v;
  }

  ensureCount(min: number, max = 999): void {
    const n = this.list.length;
    if (n < min || n > max) throw fault(`Function '${this.name}' expected between ${min} and ${max} arguments, got ${n}`);
  }

  /** ensure_vals: the first `kinds.length` arguments (those marked required) have these types. */
  ensureVals(kinds: readonly ValueKind[], required: readonly boolean[] = kinds.map(() => true)): void {
    this.ensureCount(required.filter(Boolean).length);
    kinds.forEach((k, i) => {
      if (required[i] && i < this.list.length && !IS[k](this.list[i])) {
        throw fault(`Function '${this.name}' expected value of type ${mangled(k)}, got ${typeOf(this.list[i])}`, "runtime/type");
      }
    });
  }
}
