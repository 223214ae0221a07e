// Which builtins a value has (value_t::get_builtins) and how a filter reaches them
// (runtime.cpp: apply_filter, try_builtin_func). A filter is looked up on the type of its input,
// so the same name can exist for one type and not another ("Unknown (built-in) filter 'items' for
// type String"). Four aliases apply to filters only (count, d, e, trim), and seven filters written
// without arguments first turn a defined non-string input into its string.
import { type CallArgs, LoopContext, type Runtime, Tuple, Undefined, type Value } from "../../interpreter/kit";
import { LArgs } from "./args";
import { arrayBuiltins } from "./arrayBuiltins";
import { noneBuiltins, undefinedBuiltins } from "./emptyBuiltins";
import { LlamaFunction, type Builtin, type BuiltinTable } from "./functions";
import { boolBuiltins, floatBuiltins, intBuiltins } from "./numberBuiltins";
import { objectBuiltins } from "./objectBuiltins";
import { stringBuiltins } from "./stringBuiltins";
import { isStr } from "./strings";
import { asString, fault, isObject, typeOf } from "./values";

const NO_BUILTINS: BuiltinTable = {};

/** The builtin table of `v`'s type; Function and KwArg values have none and throw. */
function builtinsOf(v: Value): BuiltinTable {
  if (v === null) return noneBuiltins;
  switch (typeof v) {
    case "boolean":
      return boolBuiltins;
    case "bigint":
      return intBuiltins;
    case "number":
      return floatBuiltins;
    case "string":
      return stringBuiltins;
  }
  if (isStr(v)) return stringBuiltins;
  if (Array.isArray(v) || v instanceof Tuple) return arrayBuiltins;
  if (v instanceof LoopContext) return NO_BUILTINS;
  if (isObject(v)) return objectBuiltins;
  if (v instanceof Undefined) return undefinedBuiltins;
  throw fault(`${typeOf(v)} has no builtins`, "runtime/type");
}

export function builtin(v: Value, name: string): Builtin | undefined {
  const table = builtinsOf(v);
  return Object.hasOwn(table, name) ? table[name] : undefined;
}

/** try_builtin_func(…, undef_on_missing = true): the builtin bound to `v`, or null. */
export function boundBuiltin(v: Value, name: string): LlamaFunction | null {
  const fn = builtin(v, name);
  return fn ? new LlamaFunction(name, fn, v) : null;
}

const ALIASES: Readonly<Record<string, string>> = { count: "length", d: "default", e: "escape", trim: "strip" };
const COERCED = new Set(["capitalize", "lower", "replace", "strip", "title", "upper", "wordcount"]);

/** `bare`: written without parentheses, the form apply_filter coerces the input for (`x|upper`, not `x|upper()`). */
export function applyFilter(rt: Runtime, name: string, input: Value, a: CallArgs, bare: boolean): Value {
  const id = Object.hasOwn(ALIASES, name) ? ALIASES[name] : name;
  if (bare && COERCED.has(id) && !(input instanceof Undefined) && !isStr(input)) input = asString(input);
  const fn = builtin(input, id);
  if (!fn) throw fault(`Unknown (built-in) filter '${id}' for type ${typeOf(input)}`, "runtime/unknown-filter");
  return fn(LArgs.from(a, id, input), rt);
}
