// @huggingface/jinja 0.5.13 (the exact devDependency): `new Template(source).render(context)`, which
// tokenizes with lstrip_blocks and trim_blocks. Every rule and its evidence:
// docs/dialects/hfjinja-0.5.13.md; the real package is the test oracle (test/helpers/realHfJinja.ts).
import { type Dialect, Fault, PyDict, type Value } from "../interpreter/kit";
import { hfGlobals } from "./hfjinja/builtins";
import { bindMacroArgs } from "./hfjinja/macros";
import { hfFilters } from "./hfjinja/filters";
import { hfOps } from "./hfjinja/ops";
import { hfRefusal } from "./hfjinja/syntax";
import { hfTestFns } from "./hfjinja/tests";
import { arrayOf, display, typeOf } from "./hfjinja/values";
import { hfText } from "./hfjinja/whitespace";

/** convertToRuntimeValues sees JSON.parse's numbers: an integral one is an IntegerValue (1.0 → 1), big ones are doubles. */
function fromJsonNumbers(v: Value): Value {
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : v;
  if (typeof v === "bigint") return BigInt(Number(v));
  if (Array.isArray(v)) return v.map(fromJsonNumbers);
  if (v instanceof PyDict) return PyDict.from([...v.entries()].map(([k, x]) => [k, fromJsonNumbers(x)]));
  return v;
}

/** The message `applyFilter` ends with when no branch knows the name (the `x | f` form's). */
function unknownFilter(name: string, v?: Value): Fault {
  const kind = arrayOf(v ?? null)
    ? "ArrayValue"
    : typeof v === "string"
      ? "StringValue"
      : typeof v === "bigint" || typeof v === "number"
        ? "NumericValue"
        : v instanceof PyDict
          ? "ObjectValue"
          : typeof v === "boolean"
            ? "BooleanValue"
            : null;
  return new Fault(
    "runtime/unknown-filter",
    "Error",
    kind ? `Unknown ${kind} filter: ${name}` : `Cannot apply filter "${name}" to type: ${typeOf(v ?? null)}`,
  );
}

export const hfjinja_0_5_13: Dialect = {
  engine: "hfjinja",
  version: "@huggingface/jinja 0.5.13",
  evidence:
    "node_modules/@huggingface/jinja/src (lexer.ts, parser.ts, runtime.ts, utils.ts); differential tests against the package in process",
  // renderBlock: null and undefined print nothing, everything else its toString().
  str: (v) => (v === null || typeOf(v) === "UndefinedValue" ? "" : display(v)),
  text: hfText,
  refuse: (node, ancestors, _self, source) => hfRefusal(node, ancestors, source),
  ops: {
    ...hfOps,
    dictKey: (k) => {
      if (typeof k !== "string") throw new Fault("runtime/type", "Error", `Object keys must be strings: got ${typeOf(k)}`);
      return k;
    },
  },
  context: (ctx) => fromJsonNumbers(ctx) as PyDict,
  // renderFor: one scope for all iterations; the else block runs unless an iteration ran to its end.
  loopScope: { leaksTarget: false, sharedAcrossIterations: true },
  loopElse: "unless-completed",
  // BreakControl/ContinueControl are exceptions: the strings the iteration's blocks had built are lost.
  loopControlDropsIteration: true,
  // Only renderFor catches them: they leave a macro call for the loop around it; with none they fail the
  // render as an Error with no message.
  loopControlCrossesCalls: true,
  loopControlOutsideLoop: (kind) =>
    new Fault("runtime/unsupported", "Error", `${kind} outside a loop (${kind === "break" ? "Break" : "Continue"}Control)`),
  // FilterStatement and a block `set` render their bodies in the enclosing environment.
  inlineScopes: { setBlock: true, filterBlock: true },
  bindMacroArgs,
  notCallable: (fn) => new Fault("runtime/type", "Error", `Cannot call something that is not a function: got ${typeOf(fn)}`),
  filters: hfFilters,
  tests: hfTestFns,
  methods: { str: {}, list: {}, dict: {}, tuple: {}, int: {}, float: {} },
  globals: hfGlobals,
  unknownFilter,
  unknownTest: (name) => new Fault("runtime/unknown-test", "Error", `Unknown test: ${name}`),
  // The engine's errors as `name: message` (Error, SyntaxError, TypeError).
  errorMessage: (f) => f.message,
};
