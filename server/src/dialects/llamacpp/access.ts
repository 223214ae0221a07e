// Member access as llama.cpp evaluates it (runtime.cpp: member_expression::execute_impl). `obj.name`
// prefers a builtin of obj's type over a key of that name (`{'items': 5}.items` is the function,
// `['items']` the 5); a miss is an Undefined whose hint names what was looked up, never an error,
// so chains like `foo.bar.baz` on a missing `foo` are Undefined all the way. Strings index by byte
// and without negative indexes ("abc"[-1] is Undefined), lists with them.
import { type Runtime, Undefined, type Value } from "../../interpreter/kit";
import { LArgs } from "./args";
import { boundBuiltin, builtin } from "./builtins";
import { hashable, objectAt } from "./ops";
import { byteAt, byteLength, isStr, strOf } from "./strings";
import { asInt, asString, fault, isArray, isInt, isObject, itemsOf, present, typeOf, undef } from "./values";

/** `obj.name` */
export function getattr(obj: Value, name: string): Value {
  const fn = boundBuiltin(obj, name);
  if (fn) return fn;
  if (obj instanceof Undefined) return undef("object_property");
  if (isObject(obj)) return present(objectAt(obj, name), () => undef(name));
  return undef(name);
}

/** A missing key or a string property: the type's builtin of that name, else Undefined(name). */
function builtinOr(obj: Value, name: string): Value {
  return boundBuiltin(obj, name) ?? undef(name);
}

/** `obj[key]`, and `obj.0` */
export function getitem(obj: Value, key: Value): Value {
  if (key instanceof Undefined) return undef("object_property");
  if (!hashable(key)) throw fault(`Type: ${typeOf(key)} is not allowed as object key`, "runtime/type");
  if (obj instanceof Undefined) return undef("object_property");
  if (isObject(obj)) return present(objectAt(obj, key), () => builtinOr(obj, strOf(asString(key))));
  if (isArray(obj) || isStr(obj)) {
    if (isInt(key)) {
      if (isStr(obj)) {
        const s = strOf(obj);
        return key >= 0n && key < BigInt(byteLength(s)) ? byteAt(s, Number(key)) : undef("object_property");
      }
      const list = itemsOf(obj);
      const i = key < 0n ? key + BigInt(list.length) : key;
      return i >= 0n && i < BigInt(list.length) ? list[Number(i)] : undef("object_property");
    }
    if (isStr(key)) return builtinOr(obj, strOf(key));
    throw fault(`Cannot access property with non-string/non-number: got ${typeOf(key)}`, "runtime/type");
  }
  if (!isStr(key)) throw fault(`Cannot access property with non-string: got ${typeOf(key)}`, "runtime/type");
  return builtinOr(obj, strOf(key));
}

/** `obj[start:stop:step]`: defaults filled in as the engine does, then the type's `slice` builtin. */
export function slice(obj: Value, start: Value | undefined, stop: Value | undefined, step: Value | undefined, rt: Runtime): Value {
  const size = BigInt(isArray(obj) ? itemsOf(obj).length : isStr(obj) ? byteLength(strOf(obj)) : 0);
  const stepV = step === undefined ? 1n : step;
  const back = asInt(stepV) < 0n;
  const startV = start === undefined ? (back ? size - 1n : 0n) : start;
  const stopV = stop === undefined ? (back ? -1n : size) : stop;
  const fn = builtin(obj, "slice");
  if (!fn) throw fault(`Unknown (built-in) filter 'slice' for type ${typeOf(obj)}`, "runtime/unknown-filter");
  return fn(new LArgs([obj, startV, stopV, stepV], "slice"), rt);
}
