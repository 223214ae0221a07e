// Jinja2's default globals (range, dict, namespace, cycler, joiner, lipsum) and the two HF
// transformers adds for chat templates (raise_exception, strftime_now).
import { BuiltinFunction } from "../callables";
import { PyDict } from "../dict";
import { Fault } from "../errors";
import { isInt, toBig } from "../python/numbers";
import { strftime } from "../python/strftime";
import type { Runtime } from "../dialect";
import { Undefined } from "../undefined";
import { Namespace, PyObject, PyRange, Tuple, typeName, type CallArgs, type Value } from "../values";
import { bind } from "./args";

/** jinja2.sandbox.MAX_RANGE */
const MAX_RANGE = 100_000;

function intArg(v: Value): bigint {
  if (v instanceof Undefined) throw v.fault();
  if (!isInt(v)) throw Fault.type(`'${typeName(v)}' object cannot be interpreted as an integer`);
  return toBig(v);
}

function range(_rt: Runtime, a: CallArgs): Value {
  if (a.kwargs?.size) throw Fault.type("range() takes no keyword arguments");
  const n = a.args.map(intArg);
  if (n.length === 0 || n.length > 3) throw Fault.type(`range expected at most 3 arguments, got ${n.length}`);
  const [start, stop, step] = n.length === 1 ? [0n, n[0], 1n] : [n[0], n[1], n[2] ?? 1n];
  if (step === 0n) throw Fault.value("range() arg 3 must not be zero");
  const r = new PyRange(start, stop, step);
  if (r.length > MAX_RANGE) {
    throw new Fault("runtime/overflow", "OverflowError", `Range too big. The sandbox blocks ranges larger than MAX_RANGE (${MAX_RANGE}).`);
  }
  return r;
}

/** Python's dict(*args, **kwargs). */
function dictOf(rt: Runtime, a: CallArgs, fname: string): PyDict {
  if (a.args.length > 1) throw Fault.type(`${fname} expected at most 1 argument, got ${a.args.length}`);
  const d = new PyDict();
  const src = a.args[0];
  if (src instanceof PyDict) for (const [k, v] of src.entries()) d.set(k, v);
  else if (src !== undefined) {
    let i = 0;
    for (const item of rt.iterate(src)) {
      const pair = Array.isArray(item) ? item : item instanceof Tuple ? item.items : null;
      if (!pair || pair.length !== 2)
        throw Fault.value(`dictionary update sequence element #${i} has length ${pair?.length ?? 1}; 2 is required`);
      d.set(pair[0], pair[1]);
      i++;
    }
  }
  if (a.kwargs) for (const [k, v] of a.kwargs) d.set(k, v);
  return d;
}

class Cycler extends PyObject {
  private pos = 0;
  constructor(private readonly items: readonly Value[]) {
    super();
  }
  get typeName(): string {
    return "Cycler";
  }
  override attr(name: string): Value | undefined {
    switch (name) {
      case "current":
        return this.items[this.pos];
      case "next":
        return new BuiltinFunction("next", () => {
          const v = this.items[this.pos];
          this.pos = (this.pos + 1) % this.items.length;
          return v;
        });
      case "reset":
        return new BuiltinFunction("reset", () => {
          this.pos = 0;
          return null;
        });
    }
    return undefined;
  }
}

export const jinjaGlobals: Record<string, Value> = {
  range: new BuiltinFunction("safe_range", range),
  dict: new BuiltinFunction("dict", (rt, a) => dictOf(rt, a, "dict")),
  namespace: new BuiltinFunction("namespace", (rt, a) => {
    const ns = new Namespace();
    for (const [k, v] of dictOf(rt, a, "namespace").entries()) ns.attrs.set(rt.str(k), v);
    return ns;
  }),
  cycler: new BuiltinFunction("cycler", (_rt, a) => {
    if (a.args.length === 0) throw Fault.runtime("at least one item has to be provided");
    return new Cycler(a.args);
  }),
  joiner: new BuiltinFunction("joiner", (_rt, a) => {
    const [sep] = bind("joiner", ["sep"], a);
    let used = false;
    return new BuiltinFunction("joiner", () => {
      if (!used) {
        used = true;
        return "";
      }
      return sep === undefined ? ", " : sep;
    });
  }),
  lipsum: new BuiltinFunction("generate_lorem_ipsum", () => {
    throw Fault.notReproduced("lipsum() is not reproduced: its output is random");
  }),
};

/** What HF transformers' chat template environment adds (transformers/utils/chat_template_utils.py). */
export const hfGlobals: Record<string, Value> = {
  raise_exception: new BuiltinFunction("raise_exception", (rt, a) => {
    const [message] = bind("raise_exception", ["message"], a, 1);
    throw new Fault("runtime/raise-exception", "TemplateError", rt.str(message!));
  }),
  strftime_now: new BuiltinFunction("strftime_now", (rt, a) => {
    const [format] = bind("strftime_now", ["format"], a, 1);
    if (typeof format !== "string") throw Fault.type(`strftime() argument 1 must be str, not ${typeName(format!)}`);
    return strftime(format, rt.now());
  }),
};
