// The names every template sees in llama.cpp (value.cpp, global_builtins, looked up when a name is
// not a variable): raise_exception, namespace (a plain object, so `set ns.x` works on any object),
// strftime_now, range (a list) and tojson — and every test as a function (`test_is_odd(3)`).
// Jinja2's dict, lipsum, cycler and joiner do not exist. `true`, `None` … are not literals but six
// variables of every context (runtime.h, context::context), so a context key or a `set` can shadow them.
import { PyDict, PyRange, type Value } from "../../interpreter/kit";
import { tojson } from "./commonBuiltins";
import { LlamaFunction, type BuiltinTable } from "./functions";
import { strftime } from "./strftime";
import { strOf, type LStr } from "./strings";
import { llamaTests } from "./tests";
import { asInt, fault, KwArg, undef } from "./values";

const functions: BuiltinTable = {
  raise_exception: (a) => {
    a.ensureVals(["string"]);
    throw fault(`Jinja Exception: ${strOf(a.pos(0) as LStr)}`, "runtime/raise-exception");
  },
  namespace: (a) => {
    const ns = new PyDict();
    for (const arg of a.list) {
      if (!(arg instanceof KwArg)) throw fault("namespace() arguments must be kwargs", "runtime/type");
      ns.set(arg.key, arg.value);
    }
    return ns;
  },
  strftime_now: (a, rt) => {
    a.ensureVals(["string"]);
    const s = strftime(strOf(a.pos(0) as LStr), rt.now());
    if (s === null) throw fault("strftime_now: failed to format time", "runtime/value");
    return s;
  },
  range: (a, rt) => {
    a.ensureCount(1, 3);
    a.ensureVals(["int", "int", "int"], [true, false, false]);
    const [arg0, arg1, arg2] = [a.pos(0), a.posOr(1, undef()), a.posOr(2, undef())];
    const [start, stop, step] =
      a.count === 1 ? [0n, asInt(arg0), 1n] : a.count === 2 ? [asInt(arg0), asInt(arg1), 1n] : [asInt(arg0), asInt(arg1), asInt(arg2)];
    if (step === 0n) throw fault("range() step argument must not be zero", "runtime/value");
    // The list is built whole: its length is work (steps) and a size (output) before it is.
    const length = new PyRange(start, stop, step).length;
    rt.tick(length);
    rt.checkSize(length);
    const out: Value[] = [];
    // int64_t arithmetic: `i` wraps, so range(-2**63, 2**63 - 1, 2**63 - 1) never ends there; the
    // items past `length` (only a wrapped counter makes them) are counted as they come.
    for (let i = start; step > 0n ? i < stop : i > stop; i = BigInt.asIntN(64, i + step)) {
      out.push(i);
      if (out.length > length) {
        rt.tick(1);
        rt.checkSize(out.length);
      }
    }
    return out;
  },
  tojson,
};

const CONSTANTS: Readonly<Record<string, Value>> = { true: true, True: true, false: false, False: false, none: null, None: null };

export const llamaGlobals: Readonly<Record<string, Value>> = {
  ...CONSTANTS,
  ...Object.fromEntries(
    [...Object.entries(functions), ...Object.entries(llamaTests).map(([k, f]) => [`test_is_${k}`, f] as const)].map(([name, fn]) => [
      name,
      new LlamaFunction(name, fn),
    ]),
  ),
};
