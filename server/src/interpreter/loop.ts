// Jinja2's `loop` variable (jinja2/runtime.py, LoopContext): position, neighbours, cycle(),
// changed() and, for `{% for … recursive %}`, calling `loop(children)` to render the body again.
import { BuiltinFunction } from "./callables";
import { eq } from "./python/compare";
import { Fault } from "./errors";
import type { Runtime } from "./dialect";
import { Undefined } from "./undefined";
import { Callable, type CallArgs, type Value } from "./values";

export class LoopContext extends Callable {
  readonly name = "loop";
  index0 = -1;
  private lastChanged: Value[] | null = null;

  constructor(
    private readonly items: readonly Value[],
    readonly depth0: number,
    /** Renders the loop body over another iterable (recursive loops only). */
    private readonly recurse: ((iterable: Value) => Value) | null,
  ) {
    super();
  }

  get typeName(): string {
    return "LoopContext";
  }

  override attr(name: string): Value | undefined {
    const i = this.index0;
    const n = this.items.length;
    switch (name) {
      case "index0":
        return BigInt(i);
      case "index":
        return BigInt(i + 1);
      case "revindex":
        return BigInt(n - i);
      case "revindex0":
        return BigInt(n - i - 1);
      case "first":
        return i === 0;
      case "last":
        return i === n - 1;
      case "length":
        return BigInt(n);
      case "depth":
        return BigInt(this.depth0 + 1);
      case "depth0":
        return BigInt(this.depth0);
      case "previtem":
        return i > 0 ? this.items[i - 1] : Undefined.hint("there is no previous item");
      case "nextitem":
        return i + 1 < n ? this.items[i + 1] : Undefined.hint("there is no next item");
      case "cycle":
        return new BuiltinFunction("cycle", (_rt, a) => {
          if (a.args.length === 0) throw Fault.type("no items for cycling given");
          return a.args[this.index0 % a.args.length];
        });
      case "changed":
        return new BuiltinFunction("changed", (_rt, a) => {
          const changed =
            this.lastChanged === null || this.lastChanged.length !== a.args.length || a.args.some((v, k) => !eq(v, this.lastChanged![k]));
          this.lastChanged = a.args;
          return changed;
        });
    }
    return undefined;
  }

  call(_rt: Runtime, a: CallArgs): Value {
    if (this.recurse === null) throw Fault.type("The loop must be decorated with 'recursive' to be called recursively.");
    if (a.args.length !== 1 || a.kwargs) throw Fault.type("LoopContext.__call__() missing 1 required positional argument: 'iterable'");
    return this.recurse(a.args[0]);
  }

  override pyRepr(): string {
    return `<LoopContext ${this.index0 + 1}/${this.items.length}>`;
  }
}
