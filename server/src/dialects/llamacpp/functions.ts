// llama.cpp's Function values (value_func_t): a builtin of the global table, a builtin bound to the
// value it was read from (`'a'.upper` binds 'a' as the first argument, like a filter), and the type
// for the builtin tables themselves.
import { Callable, type CallArgs, type Runtime, type Value } from "../../interpreter/kit";
import { LArgs } from "./args";

export type Builtin = (a: LArgs, rt: Runtime) => Value;
export type BuiltinTable = Readonly<Record<string, Builtin>>;

export class LlamaFunction extends Callable {
  constructor(
    readonly name: string,
    private readonly fn: Builtin,
    /** The bound value (arg0), passed before the call's own arguments. */
    readonly self?: Value,
  ) {
    super();
  }
  get typeName(): string {
    return "Function";
  }
  call(rt: unknown, a: CallArgs): Value {
    return this.fn(LArgs.from(a, this.name, this.self), rt as Runtime);
  }
}
