// Jinja2's default `Undefined`: what a missing variable, attribute, item or argument evaluates to.
// It prints as '', is falsy and iterates as empty, but any other use raises UndefinedError with the
// message Jinja2 builds from what was looked up on what (jinja2/runtime.py, Undefined).
import { Fault } from "./errors";
import { reprValue } from "./python/repr";
import { PyObject, typeName, type Value } from "./values";

/** Where a non-builtin type lives, for Jinja2's `object_type_repr` ('jinja2.utils.Namespace object'). */
const MODULES: Record<string, string> = {
  Namespace: "jinja2.utils",
  Markup: "markupsafe",
  LoopContext: "jinja2.runtime",
  Macro: "jinja2.runtime",
  Cycler: "jinja2.utils",
  Joiner: "jinja2.utils",
  _GroupTuple: "jinja2.filters",
};

export function objectTypeRepr(v: Value): string {
  if (v === null) return "None";
  const t = typeName(v);
  const mod = MODULES[t];
  return mod ? `${mod}.${t} object` : `${t} object`;
}

const NO_OBJECT = Symbol("missing");

export class Undefined extends PyObject {
  private constructor(
    private readonly hint: string | null,
    private readonly obj: Value | typeof NO_OBJECT,
    private readonly name: Value | undefined,
    /** The unsafe-attribute undefined of the sandbox raises SecurityError instead. */
    private readonly security: boolean,
  ) {
    super();
  }

  get typeName(): string {
    return "Undefined";
  }
  override pyRepr(): string {
    return "Undefined";
  }
  override pyStr(): string {
    return "";
  }

  /** A variable that is not defined: `'x' is undefined`. */
  static named(name: string): Undefined {
    return new Undefined(null, NO_OBJECT, name, false);
  }
  /** A missing attribute or item of `obj`. */
  static member(obj: Value, name: Value): Undefined {
    return new Undefined(null, obj, name, false);
  }
  static hint(hint: string): Undefined {
    return new Undefined(hint, NO_OBJECT, undefined, false);
  }
  static unsafe(hint: string): Undefined {
    return new Undefined(hint, NO_OBJECT, undefined, true);
  }

  /** The variable's name when this is an undefined variable (not a member or a hint). */
  get variable(): string | null {
    return this.obj === NO_OBJECT && typeof this.name === "string" ? this.name : null;
  }

  get message(): string {
    if (this.hint !== null) return this.hint;
    if (this.obj === NO_OBJECT) return `${reprValue(this.name ?? null)} is undefined`;
    if (typeof this.name !== "string") return `${objectTypeRepr(this.obj)} has no element ${reprValue(this.name ?? null)}`;
    return `${reprValue(objectTypeRepr(this.obj))} has no attribute ${reprValue(this.name)}`;
  }

  /** The error any use other than printing, testing or iterating raises. */
  fault(): Fault {
    return this.security ? new Fault("runtime/security", "SecurityError", this.message) : Fault.undefined(this.message);
  }
}
