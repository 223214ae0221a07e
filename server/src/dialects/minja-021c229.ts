// google/minja at commit 021c229 (2025-09-22): the engine llama.cpp embedded before its own and
// that other servers still embed, as minja::Parser::parse (trim_blocks, lstrip_blocks) and
// minja::Context::make run it. Every rule and its evidence: docs/dialects/minja-021c229.md.
import { type Dialect, Fault } from "../interpreter/kit";
import { minjaFilters, minjaGlobals } from "./minja/builtins";
import { callMethod } from "./minja/methods";
import { minjaOps } from "./minja/ops";
import { output } from "./minja/print";
import { minjaRefusal } from "./minja/syntax";
import { minjaTests } from "./minja/tests";
import { minjaText } from "./minja/whitespace";

/** Methods are dispatched by `callMethod` (minja's MethodCallExpr), not by attribute lookup. */
const NO_METHODS = { str: {}, list: {}, dict: {}, tuple: {}, int: {}, float: {} };

export const minja_021c229: Dialect = {
  engine: "minja",
  version: "google/minja 021c229 (2025-09-22)",
  evidence:
    "include/minja/minja.hpp (021c229 as vendored by mudler/vllm.cpp 2b30aeb7, upstream d7f6b729 where that copy is patched); corpus expected/minja and micro-cases.json",
  str: (v) => output(v),
  text: minjaText,
  refuse: (node, ancestors, _self, source) => minjaRefusal(node, ancestors, source),
  ops: { ...minjaOps, callMethod },
  // ForNode: destructuring_assign into the enclosing context while collecting, one loop_context.
  loopScope: { leaksTarget: true, sharedAcrossIterations: true },
  filters: minjaFilters,
  tests: minjaTests,
  methods: NO_METHODS,
  globals: minjaGlobals,
  // A filter is a context value: a missing one is null, and calling null fails.
  unknownFilter: () => new Fault("runtime/unknown-filter", null, "Value is not callable: null"),
  unknownTest: (name) => new Fault("runtime/unknown-test", null, `Unknown type for 'is' operator: ${name}`),
  // LoopControlNode throws; only ForNode catches it around its body, and a macro call (an
  // expression) turns it into a plain error.
  loopControlOutsideLoop: (kind) => new Fault("runtime/unsupported", null, `${kind} outside of a loop`),
  // minja's messages have no Python exception class.
  errorMessage: (f) => f.text,
};
