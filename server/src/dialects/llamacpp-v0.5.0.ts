// llama.cpp's own Jinja engine (common/jinja of llama.cpp release v0.5.0) as node-llama-cpp@3.22.1
// ships it and renders through its AddonJinjaRenderer: what the corpus's expected/llamacpp holds.
//
// Evidence: the engine's source (lexer.cpp, parser.cpp, runtime.cpp/.h, value.cpp/.h, string.cpp,
// from node_modules/node-llama-cpp/llama/gitRelease.bundle), the addon's AddonJinjaRenderer.cpp, and
// renders of the real engine in process (test/helpers/realLlamaCpp.ts): the corpus, the micro cases
// and test/unit/dialects/llamacpp/differential.test.ts. docs/dialects/llamacpp-v0.5.0.md lists every
// rule with its evidence.
import type { Dialect, FilterFn, Operators, Refusal, TestFn, Value } from "../interpreter/kit";
import type * as A from "../parser";
import { getattr, getitem, slice } from "./llamacpp/access";
import { LArgs } from "./llamacpp/args";
import { applyFilter } from "./llamacpp/builtins";
import { arrayBuiltins } from "./llamacpp/arrayBuiltins";
import { llamaContext } from "./llamacpp/context";
import { noneBuiltins, undefinedBuiltins } from "./llamacpp/emptyBuiltins";
import { llamaGlobals } from "./llamacpp/globals";
import { bindMacroArgs } from "./llamacpp/macros";
import { boolBuiltins, floatBuiltins, intBuiltins } from "./llamacpp/numberBuiltins";
import { objectBuiltins } from "./llamacpp/objectBuiltins";
import { binary, dictKey, loopItems, negate, plus, setattr, truthy, unpack, type BinaryOp } from "./llamacpp/ops";
import { isCalledFilter, parseLlamaCpp } from "./llamacpp/parser";
import { stringBuiltins } from "./llamacpp/stringBuiltins";
import { llamaTests } from "./llamacpp/tests";
import { mkStr } from "./llamacpp/strings";
import { asBool, fault, printed, printedParts, typeOf } from "./llamacpp/values";

const ops: Operators = {
  arith: (op, a, b, rt) => binary(op as BinaryOp, a, b, rt),
  concat: (a, b, rt) => binary("~", a, b, rt),
  neg: negate,
  pos: plus,
  compare: (op, a, b, rt) => binary(op, a, b, rt) as boolean,
  truthy,
  getattr,
  getitem,
  slice,
  iterate: (v) => loopItems(v, 1),
  unpack,
  loopItems,
  setattr,
  dictKey,
};

/** Every filter name some type has (plus the aliases); each dispatches on its input's type. */
const filterNames = new Set([
  ...[intBuiltins, floatBuiltins, boolBuiltins, stringBuiltins, arrayBuiltins, objectBuiltins, noneBuiltins, undefinedBuiltins].flatMap(
    (t) => Object.keys(t),
  ),
  "count",
  "d",
  "e",
  "trim",
]);
const filters: Record<string, FilterFn> = Object.fromEntries(
  [...filterNames].map((name): [string, FilterFn] => [
    name,
    (rt, v, a, node) => applyFilter(rt, name, v, a, !node || !isCalledFilter(node)),
  ]),
);

const tests: Record<string, TestFn> = Object.fromEntries(
  Object.entries(llamaTests).map(([name, t]) => [name, (rt, v, a) => asBool(t(LArgs.from(a, "", v), rt))]),
);

const NO_METHODS = {};

/** What each parsed template fails with when a construct is reached (keyed by node id). */
const renderRefusals = new WeakMap<A.Template, ReadonlyMap<number, Refusal>>();

function parse(source: string): { template: A.Template } | { error: Refusal & A.Span } {
  const r = parseLlamaCpp(source);
  if ("error" in r) {
    const { nesting, ...at } = r.error;
    return { error: { code: nesting ? "syntax/nesting" : "syntax/unsupported", when: "parse", ...at } };
  }
  renderRefusals.set(r.template, r.refusals);
  return { template: r.template };
}

export const llamacpp_0_5_0: Dialect = {
  engine: "llamacpp",
  version: "llama.cpp v0.5.0 common/jinja (node-llama-cpp 3.22.1 AddonJinjaRenderer)",
  evidence:
    "common/jinja source of llama.cpp v0.5.0; AddonJinjaRenderer.cpp; ../shared/corpus/expected/llamacpp; differential test against the addon in process",
  str: (v: Value) => printed(v),
  // A body's value keeps what each statement printed as a part of its own (exec_statements), which
  // `capitalize` and `title` can see: {% filter title %}{{ ['b', 'A'] }}{% endfilter %} is "BA".
  printParts: printedParts,
  captured: (pieces) => mkStr(pieces),
  // The engine's own lexer computed each text run's bytes (whitespace control included).
  text: (node) => node.value,
  parse,
  refuse: (node, ancestors) => renderRefusals.get((ancestors[0] ?? node) as A.Template)?.get(node.id) ?? null,
  context: llamaContext,
  ops,
  // for_statement runs every iteration in one scope (a `set` in one is seen by the next) and runs
  // `else` when no iteration finished its body (break and continue included).
  loopScope: { leaksTarget: false, sharedAcrossIterations: true },
  loopElse: "unless-completed",
  // Set and filter block bodies and a for's else run in the enclosing context (exec_statements(body, ctx)).
  inlineScopes: { setBlock: true, filterBlock: true, forElse: true },
  // macro_statement: the body runs in a copy of the calling context, not the defining one.
  macroScope: "caller",
  bindMacroArgs,
  filters,
  tests,
  methods: { str: NO_METHODS, list: NO_METHODS, dict: NO_METHODS, tuple: NO_METHODS, int: NO_METHODS, float: NO_METHODS },
  globals: llamaGlobals,
  unknownFilter: (name, value) =>
    fault(`Unknown (built-in) filter '${name}'${value === undefined ? "" : ` for type ${typeOf(value)}`}`, "runtime/unknown-filter"),
  unknownTest: (name) => fault(`Unknown test '${name}'`, "runtime/unknown-test"),
  notCallable: (fn) => fault(`Callee is not a function: got ${typeOf(fn)}`, "runtime/type"),
  callBlockChecksCallee: true,
  // A statement's text exists only once it returns (if_statement gathers its parts at the end).
  loopControlDiscardsStatement: true,
  // break_statement::signal is an exception that only for_statement catches: it leaves a macro call
  // for the loop around it, and with none it fails the render with its what().
  loopControlCrossesCalls: true,
  loopControlOutsideLoop: (kind) => fault(`${kind === "break" ? "Break" : "Continue"} statement executed`, "runtime/unsupported"),
  errorMessage: (f) => f.text,
};
