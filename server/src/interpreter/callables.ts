// Callable values other than macros: builtin functions (globals) and bound methods of builtin types.
import type { Method, Runtime } from "./dialect";
import { Callable, type CallArgs, type Value } from "./values";

export class BuiltinFunction extends Callable {
  constructor(
    readonly name: string,
    private readonly fn: (rt: Runtime, a: CallArgs) => Value,
  ) {
    super();
  }
  get typeName(): string {
    return "function";
  }
  call(rt: Runtime, a: CallArgs): Value {
    return this.fn(rt, a);
  }
  override pyRepr(): string {
    return `<function ${this.name} at 0x0>`;
  }
}

export class BoundMethod extends Callable {
  constructor(
    readonly self: Value,
    readonly name: string,
    private readonly owner: string,
    private readonly method: Method,
  ) {
    super();
  }
  get typeName(): string {
    return "builtin_function_or_method";
  }
  call(rt: Runtime, a: CallArgs): Value {
    return this.method(rt, this.self, a);
  }
  override pyRepr(): string {
    return `<built-in method ${this.name} of ${this.owner} object at 0x0>`;
  }
}
